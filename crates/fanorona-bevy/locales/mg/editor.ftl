# Ny fandaminana toerana (position editor).

editor-open = Fandaminana toerana
editor-title = Fandaminana toerana
editor-help = Tsindrio teboka iray (na afindrao amin'ny zana-tsipika ny famantarana ary tsindrio Enter) hametrahana ny vato voafidy; tsindrio indray hanesorana azy.
    W, B, Delete: izay hapetraka. S: ny anjaran'iza. P: soraty ny tadin'ny toerana. Ctrl+V: apetaho. Esc: menio.
editor-board = Takelaka: { $size }
editor-game-capture = Lalao: Fanorona
editor-game-vela = Lalao: Vela
editor-game-telo = Lalao: Fanoron-Telo
editor-white-to-move = Anjaran'ny Fotsy [S]
editor-black-to-move = Anjaran'ny Mainty [S]
editor-put-white = Mametraka Fotsy [W]
editor-put-black = Mametraka Mainty [B]
editor-remove = Manala [Del]
editor-chosen = > { $brush }
editor-clear = Diovina
editor-reset = Toerana fanombohana
editor-play-engine = Milalao amin'ny solosaina
editor-play-people = Milalao olona roa
editor-analyse = Hadihadio
editor-copy = Adikao ny tady
editor-paste = Apetaho [Ctrl+V]
editor-type = Soraty ny tady [P]
editor-menu = Menio [Esc]

editor-stones = Vato: Fotsy { $white }, Mainty { $black }
editor-string = Tadin'ny toerana: { $fen }
editor-entry = Soraty ny tadin'ny toerana: { $text }_ (Enter manokatra azy, Esc manidy)
editor-legal = Toerana ara-dalàna, anjaran'ny { $side }: lalao, hadihadio na adikao.
editor-refused = Tsy toerana azo ekena: { $reason }.
editor-no-white = Tsy manana vato ny Fotsy: efa vita ny lalao. Mametraha vato fotsy iray farafahakeliny.
editor-no-black = Tsy manana vato ny Mainty: efa vita ny lalao. Mametraha vato mainty iray farafahakeliny.
editor-decided = Efa vita eto ny lalao ({ $result }) Ovay ny vato na ny anjaran'iza.
editor-not-playable = Tsy azo atomboka amin'ity toerana ity. { $reason }
editor-copied = Voadika tany amin'ny clipboard ny tadin'ny toerana.
editor-no-clipboard = Tsy voadika ny tadin'ny toerana (tsy misy clipboard eto); ity izy: { $fen }
editor-opened = Nosokafana ny tadin'ny toerana. { $verdict }
editor-bad-string = "{ $text }": { $reason }
editor-no-paste = Tsy nisy napetaka: { $reason }
editor-no-clipboard-here = tsy misy clipboard eto
editor-clipboard-silent = tsy namaly ny clipboard
editor-opened-words = Fandaminana toerana, takelaka { $size }. Ny zana-tsipika no mamindra ny famantarana, Enter no mametraka na manala vato, W sy B no mifidy ny loko, Delete no manala, S no manova ny anjaran'iza, Tab no mankany amin'ny bokotra. { $verdict }
editor-pressed = { $point }, { $what }. { $verdict }
