# Les panneaux de l'écran de jeu.

panel-undo = Annuler [U]
panel-redo = Rétablir [R]
panel-type-turn = Saisir [T]
panel-menu = Menu [Échap]
panel-hint = Indice [H]
panel-analysis = Analyse [E]
panel-review = Revue [G]
panel-open = Ouvrir [O]
panel-copy-position = Copier position
panel-copy-fgn = Copier FGN
panel-save-position = Sauver la position
panel-save = Enregistrer [Ctrl+S]
panel-new-game = Nouvelle partie
panel-resign = Abandonner
panel-offer-draw = Proposer la nulle
panel-end-turn = Finir le coup [Espace]
panel-approach = Approche [A]
panel-withdrawal = Retrait [W]
panel-accept-draw = Accepter la nulle
panel-decline-draw = Refuser
panel-help =
    Cliquez une pierre, puis un point marqué.
    Clic droit glissé, flèches : tourner. Molette : zoom.
    , et . : revoir les coups. M : son. Début : vue.
panel-turns = Coups
panel-no-turns = Aucun coup joué
panel-back-to-game = Retour à la partie [Échap]

panel-at-start = Au début : { $side } joue
panel-after-turn = Après { $number } : { $side } joue
panel-game-over = Partie terminée
panel-stones = Pierres : Blanc { $white }, Noir { $black }
panel-person = joueur
panel-engine-level = ordinateur niveau { $level }
panel-players = Blanc : { $white }. Noir : { $black }. Plateau { $size }.
panel-thinking = L'ordinateur réfléchit{ $dots } { $seconds } s
panel-clocks = Blanc { $white }   Noir { $black }
panel-type-a-turn = Saisissez un coup : { $text } (Entrée joue, Échap ferme)

panel-analysis-over = Analyse : la partie est terminée
panel-analysis-thinking = Analyse : réflexion...
panel-analysis-waits = L'analyse attend que la position soit stable
panel-evaluation =
    Évaluation : { $words } ({ $score } pierres pour Blanc ; profondeur { $depth }, { $nodes } nœuds)
    Meilleure suite : { $line }
panel-evaluation-thinking =
    Évaluation : { $words } ({ $score } pierres pour Blanc ; profondeur { $depth }, réflexion, { $nodes } nœuds)
    Meilleure suite : { $line }
eval-equal = à peu près égal
eval-ahead = { $count ->
    [one] { $side } a { $stones } pierre d'avance
   *[other] { $side } a { $stones } pierres d'avance
}
eval-wins-in = { $side } gagne en { $turns }
