analysis-lines = { $count ->
   *[other] Tohiny tsara indrindra { $count } no asehon'ny fandinihana
}
analysis-fewer-lines = Tohiny vitsy kokoa
analysis-more-lines = Tohiny maro kokoa
panel-evaluation-lines = Tombana: { $words } (halalina { $depth }, toerana { $nodes })
panel-evaluation-lines-thinking = Tombana: { $words } (halalina { $depth }, mieritreritra, toerana { $nodes })
panel-analysis-line = { $number }) { $score } h{ $depth }: { $line }
