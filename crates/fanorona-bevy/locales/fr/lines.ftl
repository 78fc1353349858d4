analysis-lines = { $count ->
    [one] L'analyse montre la meilleure suite
   *[other] L'analyse montre les { $count } meilleures suites
}
analysis-fewer-lines = Moins de suites
analysis-more-lines = Plus de suites
panel-evaluation-lines = Évaluation : { $words } (profondeur { $depth }, { $nodes } nœuds)
panel-evaluation-lines-thinking = Évaluation : { $words } (profondeur { $depth }, réflexion, { $nodes } nœuds)
panel-analysis-line = { $number }) { $score } p{ $depth } : { $line }
