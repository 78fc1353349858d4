# Ny tontonana amin'ny efijery filalaovana.

panel-undo = Foanana [U]
panel-redo = Averina [R]
panel-type-turn = Soraty [T]
panel-menu = Safidy [Esc]
panel-hint = Torohevitra [H]
panel-analysis = Dinika [E]
panel-review = Famerenana [G]
panel-open = Sokafy [O]
panel-copy-position = Adikao toerana
panel-copy-fgn = Adikao FGN
panel-save-position = Tehirizo ny toerana
panel-save = Tehirizo [Ctrl+S]
panel-new-game = Lalao vaovao
panel-resign = Hitolo-batana
panel-offer-draw = Hanolotra sahala
panel-end-turn = Vita ny anjara [Space]
panel-approach = Manatona [A]
panel-withdrawal = Miala [W]
panel-accept-draw = Ekena ny sahala
panel-decline-draw = Tsy ekena
panel-help =
    Tsindrio ny vato iray, avy eo ny teboka voamarika.
    Sarihina amin'ny bokotra havanana, zana-tsipika: mihodina. Kodiarana: manakaiky.
    , sy . : mijery ny lasa. M: feo. Home: fijery.
panel-turns = Anjara
panel-no-turns = Mbola tsy misy
panel-back-to-game = Hiverina amin'ny lalao [Esc]

panel-at-start = Amin'ny fiandohana: anjaran'ny { $side }
panel-after-turn = Taorian'ny { $number }: anjaran'ny { $side }
panel-game-over = Vita ny lalao
panel-stones = Vato: Fotsy { $white }, Mainty { $black }
panel-person = olona
panel-engine-level = solosaina, haavo { $level }
panel-players = Fotsy: { $white }. Mainty: { $black }. Takelaka { $size }.
panel-thinking = Mieritreritra ny solosaina{ $dots } { $seconds } s
panel-clocks = Fotsy { $white }   Mainty { $black }
panel-type-a-turn = Soraty ny anjara: { $text } (Enter: milalao, Esc: manakatona)

panel-analysis-over = Dinika: vita ny lalao
panel-analysis-thinking = Dinika: mieritreritra...
panel-analysis-waits = Miandry ny toerana hitsahatra ny dinika
panel-evaluation =
    Tombana: { $words } ({ $score } vato ho an'ny Fotsy; halalina { $depth }, toerana { $nodes })
    Tohiny tsara indrindra: { $line }
panel-evaluation-thinking =
    Tombana: { $words } ({ $score } vato ho an'ny Fotsy; halalina { $depth }, mieritreritra, toerana { $nodes })
    Tohiny tsara indrindra: { $line }
eval-equal = mitovy ihany
# Tsy miova ny teny amin'ny isa maro; ilaina foana anefa ny $count.
eval-ahead = { $count ->
   *[other] mialoha vato { $stones } ny { $side }
}
eval-wins-in = handresy amin'ny anjara { $turns } ny { $side }
