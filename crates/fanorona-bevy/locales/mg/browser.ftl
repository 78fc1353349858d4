# Ny fitadiavana rakitra hanokafana lalao.

browser-title = Hanokatra lalao voatahiry
browser-games-folder = Lahatahirin'ny lalao
browser-home = Lahatahiry fototra
browser-start-folder = Lahatahiry niaingana
browser-up = Miakatra [Backspace]
browser-cancel = Aoka ihany [Esc]
browser-folder = Lahatahiry: { $path }
browser-parent = { $mark }..  (ny lahatahiry ambony)
browser-folder-row = { $mark }{ $name }/
browser-record-row = { $mark }{ $name }
browser-empty = tsy misy na inona na inona
browser-range = { $first }-{ $last } amin'ny { $count }
browser-footer = { $left-out ->
    [0] { $shown }. Lalao: { $extensions }.
   *[other] { $shown }; rakitra { $left-out } hafa tsy aseho. Lalao: { $extensions }.
  }
    Tsindrio na Enter: sokafy. Backspace: miakatra. Litera: mitsambikina. Kodiarana, zana-tsipika, PageUp/PageDown: mihetsika.
