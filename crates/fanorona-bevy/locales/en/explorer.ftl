# The opening explorer. $turn is a turn in notation; $score the engine's score (+0.12).
explorer-title = Opening book
explorer-legend = +wins =draws -losses for the side to move
explorer-no-book = No book for this board and these rules
explorer-out = Out of the book
explorer-engine = { $turn }  engine { $score } (d{ $depth })
explorer-games = { $turn }  +{ $wins } ={ $draws } -{ $losses }  { $percent }%
explorer-games-engine = { $turn }  +{ $wins } ={ $draws } -{ $losses }  { $percent }%  engine { $score } (d{ $depth })
