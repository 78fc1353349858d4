# L'éditeur de position.

editor-open = Éditeur de position
editor-title = Éditeur de position
editor-help = Cliquez un point (ou déplacez le curseur avec les flèches et appuyez sur Entrée) pour y poser la pierre choisie ; encore une fois pour l'enlever.
    W, B, Suppr : ce que l'on pose. S : le camp qui joue. P : taper une chaîne de position. Ctrl+V : en coller une. Échap : menu.
editor-board = Plateau : { $size }
editor-game-capture = Jeu : Fanorona
editor-game-vela = Jeu : Vela
editor-game-telo = Jeu : Fanoron-Telo
editor-white-to-move = Blanc joue [S]
editor-black-to-move = Noir joue [S]
editor-put-white = Poser Blanc [W]
editor-put-black = Poser Noir [B]
editor-remove = Enlever [Suppr]
editor-chosen = > { $brush }
editor-clear = Vider
editor-reset = Position de départ
editor-play-engine = Jouer contre l'ordinateur
editor-play-people = Jouer à deux
editor-analyse = Analyser
editor-copy = Copier la chaîne
editor-paste = Coller [Ctrl+V]
editor-type = Taper la chaîne [P]
editor-menu = Menu [Échap]

editor-stones = Pierres : Blanc { $white }, Noir { $black }
editor-string = Chaîne de position : { $fen }
editor-entry = Tapez une chaîne de position : { $text }_ (Entrée l'ouvre, Échap ferme)
editor-legal = Position légale, { $side } joue : jouez-la, analysez-la ou copiez-la.
editor-refused = Ce n'est pas une position : { $reason }.
editor-no-white = Blanc n'a aucune pierre : la partie serait déjà finie. Posez au moins une pierre blanche.
editor-no-black = Noir n'a aucune pierre : la partie serait déjà finie. Posez au moins une pierre noire.
editor-decided = La partie est déjà finie ici ({ $result }) Changez les pierres ou le camp qui joue.
editor-not-playable = Impossible de partir de cette position. { $reason }
editor-copied = Chaîne de position copiée dans le presse-papiers.
editor-no-clipboard = Chaîne de position non copiée (pas de presse-papiers ici) ; la voici : { $fen }
editor-opened = Chaîne de position ouverte. { $verdict }
editor-bad-string = « { $text } » : { $reason }
editor-no-paste = Rien n'a été collé : { $reason }
editor-no-clipboard-here = pas de presse-papiers ici
editor-clipboard-silent = le presse-papiers n'a pas répondu
editor-opened-words = Éditeur de position, plateau { $size }. Les flèches déplacent le curseur, Entrée pose ou enlève une pierre, W et B choisissent la couleur, Suppr enlève, S change le camp qui joue, Tab atteint les boutons. { $verdict }
editor-pressed = { $point }, { $what }. { $verdict }
