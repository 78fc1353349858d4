explorer-title = Répertoire d'ouvertures
explorer-legend = +gains =nulles -pertes pour le camp au trait
explorer-no-book = Pas de répertoire pour ce plateau et ces règles
explorer-out = Hors du répertoire
explorer-engine = { $turn }  moteur { $score } (p{ $depth })
explorer-games = { $turn }  +{ $wins } ={ $draws } -{ $losses }  { $percent } %
explorer-games-engine = { $turn }  +{ $wins } ={ $draws } -{ $losses }  { $percent } %  moteur { $score } (p{ $depth })
