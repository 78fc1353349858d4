explorer-title = Bokin'ny fanokafana
explorer-legend = +fandresena =sahala -faharesena ho an'ny manana anjara
explorer-no-book = Tsy misy boky ho an'ity takelaka sy fitsipika ity
explorer-out = Tsy ao amin'ny boky intsony
explorer-engine = { $turn }  milina { $score } (h{ $depth })
explorer-games = { $turn }  +{ $wins } ={ $draws } -{ $losses }  { $percent }%
explorer-games-engine = { $turn }  +{ $wins } ={ $draws } -{ $losses }  { $percent }%  milina { $score } (h{ $depth })
