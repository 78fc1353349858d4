# L'écran du menu : réglages de la nouvelle partie, tutoriel, parties enregistrées.

app-title = Fanorona
menu-subtitle = Le jeu de plateau de Madagascar

menu-tutorial-offer = Nouveau venu au fanorona ? Sept courtes leçons enseignent les règles sur de petits plateaux.
menu-tutorial-start = Commencer le tutoriel
menu-start = Nouvelle partie [Ctrl+N]
menu-tutorial = Tutoriel
menu-quit = Quitter
menu-continue = Retour à la partie [Échap]
menu-saved-games = Parties enregistrées
menu-open-file = Ouvrir un fichier... [O]
menu-no-saved-games = Aucune partie enregistrée (Enregistrer pendant une partie)
menu-load = Ouvrir { $name }

menu-players = Joueurs
menu-side = Votre couleur
menu-level = Niveau de l'ordinateur
menu-game = Jeu
menu-board = Plateau
menu-opening = Restriction d'ouverture
menu-opening-help = Premier coup de chaque camp : une seule prise, sans rafle
menu-continuation = Rafle obligatoire
menu-continuation-help = Une pierre qui peut encore prendre doit continuer
menu-stuck = Joueur bloqué
menu-animation = Vitesse d'animation
menu-clock = Pendules
menu-sound = Son
menu-language = Langue

menu-on = Oui
menu-off = Non
menu-sound-silent = Oui (muet)
mode-human-vs-engine = Joueur contre ordinateur
mode-two-players = Deux joueurs
mode-engine-vs-engine = Ordinateur contre ordinateur
menu-side-white = Blanc (commence)
menu-side-black = Noir
menu-level-value = { $level } ({ $name })
level-beginner = débutant
level-casual = détente
level-strong = fort
level-maximum = maximum
menu-game-capture = Fanorona
menu-game-vela = Vela (handicap : Blanc laisse prendre)
menu-game-telo = Fanoron-telo (3x3, trois en ligne)
menu-board-tsivy = { $size } fanoron-tsivy
menu-board-dimy = { $size } fanoron-dimy
menu-board-telo = { $size } (plateau du fanoron-telo)
menu-board-3x3 = { $size } (fanorona 3x3)
menu-board-other = { $size }
menu-stuck-loses = Perd
menu-stuck-draws = Partie nulle
animation-slow = Lente
animation-normal = Normale
animation-fast = Rapide
animation-off = Aucune
clock-off = Sans pendule
clock-control = { $increment ->
    [0] { $minutes } min
   *[other] { $minutes } min + { $increment } s par coup
}

confirm-resign = Abandonner cette partie ?
confirm-resign-yes = Abandonner [Entrée]
confirm-new-game = Commencer une nouvelle partie ? La partie en cours sera perdue.
confirm-new-game-yes = Nouvelle partie [Entrée]
confirm-cancel = Annuler [Échap]
