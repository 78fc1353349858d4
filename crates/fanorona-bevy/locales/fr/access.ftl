# Jouer au clavier et avec un lecteur d'écran : les annonces, le point sous le curseur du
# plateau, les réglages d'apparence et de taille du texte.

access-turn-capture = { $side } { $path }, { $kinds }, { $count ->
    [one] prend { $count } pierre
   *[other] prend { $count } pierres
}
access-turn-paika = { $side } { $path }, paika
access-turn-placement = { $side } pose une pierre en { $point }
access-path = { $path } vers { $point }
access-kinds = { $kinds }, { $kind }
access-kind-approach = approche
access-kind-withdrawal = retrait
access-kind-paika = paika

access-sentences = { $first }. { $second }
access-taken-back = Coup repris. { $next }
access-new-game = Nouvelle partie sur le plateau { $size }. { $next }
access-loaded = { $turns ->
    [one] Partie ouverte après { $turns } coup. { $next }
   *[other] Partie ouverte après { $turns } coups. { $next }
}
access-game-screen = Partie. { $next }. Les flèches déplacent le curseur sur le plateau, Entrée ou Espace choisit une pierre et la déplace, Fin termine une rafle, A ou W choisit l'approche ou le retrait, Tab atteint les boutons.

access-point = { $point }
access-list = { $list }, { $item }
access-white-stone = pierre blanche
access-black-stone = pierre noire
access-empty = vide
access-selected = choisie
access-capturing = pierre qui prend : Entrée ici ou Fin pour finir le coup
access-can-capture = peut prendre
access-place-here = poser une pierre ici
access-capture-here = prise ici
access-move-here = déplacement ici
access-approach-line = ligne d'approche : Entrée ou A la prend
access-withdrawal-line = ligne de retrait : Entrée ou W la prend
access-captured-last = prise au dernier coup

access-board = Plateau
access-board-cursor = Plateau, curseur sur { $point }

access-contrast = Contraste élevé
access-text-size = Taille du texte
access-size-small = Petite
access-size-normal = Normale
access-size-large = Grande
access-size-huge = Très grande
