# Indices, analyse et revue de partie.

analysis-on = Analyse activée : l'ordinateur étudie la position du plateau (E : arrêter)
analysis-off = Analyse arrêtée
hint-none-over = Pas d'indice : la partie est finie ou vous regardez un coup passé
hint-none-chain = Pas d'indice pendant une rafle : finissez-la ou annulez-la d'abord
hint-none-engine = Pas d'indice : c'est à l'ordinateur de jouer
hint-looking = Recherche d'un indice...
score-stones = { $sign }{ $value }

review-on = Revue activée : l'ordinateur évalue chaque position ; cliquez le graphique pour y aller (G : arrêter)
review-off = Revue arrêtée
review-summary = { $progress } : { $mistakes }. Cliquez le graphique pour aller à un coup.
review-done = Revue
review-progress = Revue (évaluation : { $done } positions sur { $total })
review-no-mistakes = aucune erreur trouvée
review-mistakes-found = { $counts } : { $marks }
review-mistakes = { $count ->
    [one] { $count } erreur
   *[other] { $count } erreurs
}
review-blunders = { $count ->
    [one] { $count } gaffe
   *[other] { $count } gaffes
}
review-mark = { $played }
review-mark-better = { $played } (mieux : { $better })
list-comma = { $list }, { $item }
list-ellipsis = { $list }, ...
# A finished game's result in notation (1-0, 0-1, 1/2-1/2).
score-result = { $result }
