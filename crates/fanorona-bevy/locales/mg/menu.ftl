# Ny efijery fidirana: ny safidy amin'ny lalao vaovao, ny fampianarana, ny lalao voatahiry.
# Tokony hojeren'ny olona miteny malagasy ho teny voalohany ireto lahatsoratra ireto.

app-title = Fanorona
menu-subtitle = Lalao nentim-paharazana malagasy

menu-tutorial-offer = Vao manomboka? Lesona fohy fito no mampianatra ny fitsipika amin'ny takelaka kely.
menu-tutorial-start = Hanomboka ny fampianarana
menu-start = Lalao vaovao [Ctrl+N]
menu-tutorial = Fampianarana
menu-quit = Hivoaka
menu-continue = Hiverina amin'ny lalao [Esc]
menu-saved-games = Lalao voatahiry
menu-open-file = Hanokatra rakitra... [O]
menu-no-saved-games = Mbola tsy misy lalao voatahiry (Tehirizo mandritra ny lalao)
menu-load = Sokafy { $name }

menu-players = Mpilalao
menu-side = Ny lokonao
menu-level = Haavon'ny solosaina
menu-game = Lalao
menu-board = Takelaka
menu-opening = Fetra amin'ny fanombohana
menu-opening-help = Anjara voalohany: fihinanana iray ihany, tsy misesy
menu-continuation = Tsy maintsy misesy
menu-continuation-help = Tsy maintsy mihinana indray ny vato afaka mihinana
menu-stuck = Mpilalao tsy afaka mihetsika
menu-animation = Hafainganan'ny fihetsehana
menu-clock = Famantaranandro
menu-sound = Feo
menu-language = Fiteny

menu-on = Eny
menu-off = Tsia
menu-sound-silent = Eny (mangina)
mode-human-vs-engine = Olona sy solosaina
mode-two-players = Mpilalao roa
mode-engine-vs-engine = Solosaina roa
menu-side-white = Fotsy (voalohany)
menu-side-black = Mainty
menu-level-value = { $level } ({ $name })
level-beginner = vao manomboka
level-casual = tsotra
level-strong = mahery
level-maximum = ambony indrindra
menu-game-capture = Fanorona
menu-game-vela = Vela (manome vato ny Fotsy)
menu-game-telo = Fanoron-telo (3x3, vato telo milahatra)
menu-board-tsivy = { $size } fanoron-tsivy
menu-board-dimy = { $size } fanoron-dimy
menu-board-telo = { $size } (takelaky ny fanoron-telo)
menu-board-3x3 = { $size } (fanorona 3x3)
menu-board-other = { $size }
menu-stuck-loses = Resy
menu-stuck-draws = Sahala
animation-slow = Miadana
animation-normal = Antonony
animation-fast = Haingana
animation-off = Tsy misy
clock-off = Tsy misy
clock-control = { $increment ->
    [0] { $minutes } min
   *[other] { $minutes } min + { $increment } s isaky ny anjara
}

confirm-resign = Hitolo-batana ve ianao?
confirm-resign-yes = Hitolo-batana [Enter]
confirm-new-game = Hanomboka lalao vaovao? Ho foana ny lalao mandeha.
confirm-new-game-yes = Lalao vaovao [Enter]
confirm-cancel = Aoka ihany [Esc]
