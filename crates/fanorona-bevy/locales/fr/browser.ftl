# Le navigateur de fichiers qui ouvre les parties.

browser-title = Ouvrir une partie
browser-games-folder = Dossier des parties
browser-home = Dossier personnel
browser-start-folder = Dossier de départ
browser-up = Dossier parent [Retour arrière]
browser-cancel = Annuler [Échap]
browser-folder = Dossier : { $path }
browser-parent = { $mark }..  (le dossier parent)
browser-folder-row = { $mark }{ $name }/
browser-record-row = { $mark }{ $name }
browser-empty = vide
browser-range = { $first }-{ $last } sur { $count }
browser-footer = { $left-out ->
    [0] { $shown }. Parties : { $extensions }.
    [one] { $shown } ; 1 autre fichier non listé. Parties : { $extensions }.
   *[other] { $shown } ; { $left-out } autres fichiers non listés. Parties : { $extensions }.
  }
    Clic ou Entrée : ouvrir. Retour arrière : dossier parent. Lettres : aller à. Molette, flèches, Page préc./suiv. : défiler.
