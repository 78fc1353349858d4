# Milalao amin'ny fitendry sy amin'ny mpamaky efijery: ny filazana, ny teboka eo ambanin'ny
# famantarana eo amin'ny takelaka, ny endrika sy ny haben'ny soratra.
# Teny nofidiana: fanatonana (approach), fialana (withdrawal), mihinana (capture), paika.

access-turn-capture = { $side } { $path }, { $kinds }, nihinana vato { $count }
access-turn-paika = { $side } { $path }, paika
access-turn-placement = Nametraka vato teo amin'ny { $point } ny { $side }
access-path = { $path } ho any { $point }
access-kinds = { $kinds }, { $kind }
access-kind-approach = fanatonana
access-kind-withdrawal = fialana
access-kind-paika = paika

access-sentences = { $first }. { $second }
access-taken-back = Naverina ny anjara farany. { $next }
access-new-game = Lalao vaovao amin'ny takelaka { $size }. { $next }
access-loaded = Lalao nosokafana taorian'ny anjara { $turns }. { $next }
access-game-screen = Lalao. { $next }. Ny zana-tsipika no mamindra ny famantarana eo amin'ny takelaka, Enter na Space no mifidy vato sy mamindra azy, End no mamarana ny fihinanana misesy, A na W no mifidy fanatonana na fialana, Tab no mankany amin'ny bokotra.

access-point = { $point }
access-list = { $list }, { $item }
access-white-stone = vato fotsy
access-black-stone = vato mainty
access-empty = foana
access-selected = voafidy
access-capturing = vato mihinana: Enter eto na End raha hamarana ny anjara
access-can-capture = afaka mihinana
access-place-here = apetraho eto ny vato
access-capture-here = mihinana eto
access-move-here = mandeha eto
access-approach-line = tsipika fanatonana: Enter na A no mihinana azy
access-withdrawal-line = tsipika fialana: Enter na W no mihinana azy
access-captured-last = nohanina tamin'ny anjara farany

access-board = Takelaka
access-board-cursor = Takelaka, eo amin'ny { $point } ny famantarana

access-contrast = Loko mifanohitra mafy
access-text-size = Haben'ny soratra
access-size-small = Kely
access-size-normal = Antonony
access-size-large = Lehibe
access-size-huge = Lehibe be
