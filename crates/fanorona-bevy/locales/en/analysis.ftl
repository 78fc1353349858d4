# Hints, analysis mode and the review of a game.

analysis-on = Analysis on: the engine studies the position on the board (E: off)
analysis-off = Analysis off
hint-none-over = No hint: the game is over or you are looking back
hint-none-chain = No hint during a chain: finish it or undo it first
hint-none-engine = No hint: it is the engine's turn
hint-looking = Looking for a hint...
# An evaluation in stones for White: $sign is + or -, $value the number (1.25).
score-stones = { $sign }{ $value }

review-on = Review on: the engine evaluates every position; click the graph to jump (G: off)
review-off = Review off
# The graph's line: $progress is review-done or review-progress, $mistakes what was found.
review-summary = { $progress }: { $mistakes }. Click the graph to jump to a turn.
review-done = Review
review-progress = Review (evaluating: { $done } of { $total } positions)
review-no-mistakes = no mistakes found
# $counts: how many blunders and mistakes; $marks: the first ones, with their turns.
review-mistakes-found = { $counts }: { $marks }
review-mistakes = { $count ->
    [one] 1 mistake
   *[other] { $count } mistakes
}
review-blunders = { $count ->
    [one] 1 blunder
   *[other] { $count } blunders
}
# $played is the turn played with its number and mark (12. c3-d3A?), $better the engine's.
review-mark = { $played }
review-mark-better = { $played } (better { $better })
list-comma = { $list }, { $item }
list-ellipsis = { $list }, ...
# A finished game's result in notation (1-0, 0-1, 1/2-1/2).
score-result = { $result }
