# Ny lalao: anjaran'iza, inona no nataon'ny tsindry, ny vokatra.
# Tokony hojeren'ny olona miteny malagasy ho teny voalohany ireto lahatsoratra ireto.

flow-to-move = Anjaran'ny { $side }
flow-engine-to-move = Anjaran'ny { $side } (solosaina)
flow-to-place = Anjaran'ny { $side }: mametraha vato amin'ny teboka malalaka
flow-to-move-must-capture = Anjaran'ny { $side }: tsy maintsy mihinana
flow-game-over = Vita ny lalao: lalao vaovao, foanana, na famerenana [G].
flow-chain-continues = Mitohy ny fihinanana: tsindrio ny teboka mamirapiratra na tapitra ny anjara
flow-hint = Torohevitra: { $turn } (ilay zana-tsipika eo amin'ny takelaka)
flow-looking-back-start = Mijery ny fiandohan'ny lalao (Esc: miverina)
flow-looking-back = Mijery ny toerana taorian'ny { $number } { $turn } (Esc: miverina)
flow-looking-back-click = Mijery ny lasa ianao: Esc na tsindrio ny anjara farany mba hanohy
flow-looking-back-esc = Mijery ny lasa ianao: Esc mba hanohy
flow-wait-engine = Andraso: anjaran'ny solosaina
flow-answer-draw-first = Valio aloha ny tolotra sahala
flow-place-first = Mametraha vato aloha: tsindrio teboka malalaka
flow-choose-line = Safidio izay hohanina: tsindrio vato iray amin'ny tsipika manatona na miala (A / W)
flow-stone-is-capturing = Mihinana ity vato ity: tsindrio teboka mamirapiratra na tapitra ny anjara (Space)
flow-only-capturing-stone = Ny vato mihinana ihany no mihetsika: tohizo na tapitra ny anjara (Space)
flow-selected = Voafidy ny { $point }: tsindrio teboka mamirapiratra
flow-must-capture-marked = Tsy maintsy mihinana: fidio ny iray amin'ireo vato voamarika
flow-no-free-point = Tsy misy teboka malalaka azon'ity vato ity alehana
flow-not-your-stone = { $side ->
    [white] Vato fotsy io
   *[black] Vato mainty io
}
flow-illegal-step-must-capture = Tsy azo atao: tsy maintsy mihinana
flow-illegal-step = Tsy azon'ny vato voafidy atao izany
flow-select-first = { $side ->
    [white] Mifidiana vato fotsy aloha
   *[black] Mifidiana vato mainty aloha
}
flow-chain-in-progress = Mbola mitohy ny fihinanana: tohizo eo amin'ny takelaka, na foano (U) ary soraty manontolo ny anjara
flow-typed-refused = { $text }: { $error }
flow-approach-or-withdrawal = Manatona sa miala? Tsindrio vato iray amin'ny tsipika hohanina (A / W)
flow-not-allowed = Tsy azo atao: { $error }
flow-continue-or-end = Tohizo ny fihinanana (tsindrio teboka mamirapiratra) na tapitra ny anjara (Space)
flow-chain-must-continue = Tsy maintsy mitohy ny fihinanana: tsindrio teboka mamirapiratra
flow-nothing-to-end = Tsy misy hofaranana: mbola tsy nisy dia natao
flow-rules-require-continue = Tsy maintsy mitohy ity fihinanana ity araka ny fitsipika
flow-turn-refused = Tsy ekena ny anjara: { $error }
flow-engine-turn-illegal = Tsy ekena ny anjaran'ny solosaina { $turn }
flow-engine-turn-refused = Tsy ekena ny anjaran'ny solosaina: { $error }
flow-refused = { $error }
flow-turn-taken-back = Nofoanana ny anjara mbola tsy vita
flow-nothing-to-undo = Tsy misy hofoanana
flow-nothing-to-redo = Tsy misy haverina
flow-only-person-resigns = Olona ihany no afaka mitolo-batana
flow-draw-two-people = Ho an'ny olona roa ihany ny tolotra sahala
flow-draw-offered = Manolotra sahala ny { $side }: manaiky na mandà ny { $other }
flow-draw-declined = Tsy nekena ny sahala. { $message }

result-wins = Mandresy ny { $side }: { $why }.
result-draw = Sahala: { $why }.
result-on-time = Mandresy ny { $winner }: lany fotoana ny { $loser }.
end-no-stones = lany nohanina ny vaton'ny resy
end-stuck = tsy afaka nihetsika ilay tokony hilalao
end-repetition = niverina imbetsaka ny toerana iray
end-no-capture-limit = anjara maro loatra tsy nisy fihinanana
end-resignation = nitolo-batana
end-agreement = nifanaiky
end-alignment = vato telo milahatra
end-other = { $reason }

status-nothing-to-save = Tsy misy hotehirizina
status-saved = Voatahiry ao amin'ny { $path }
status-cannot-save = Tsy voatahiry ny { $path }: { $error }
status-loaded = Voasokatra ny { $name }
status-loaded-message = { $loaded }. { $message }
status-cannot-read = Tsy voavaky ny { $path }: { $error }
status-not-a-game = Tsy lalao mety ny { $path }: { $error }

sound-off = Tsy misy feo (M: averina)
sound-on = Misy feo (M: atsahatra)
sound-on-silent = Misy feo, saingy tsy manana feo ity dika ity: ampiasao ny --features sound

export-position = Toerana
export-record = Lalao (FGN)
export-not-written = Tsy voasoratra ny { $what }: { $error }
export-copied = Voadika ny { $what }
export-not-copied = Tsy voadika ny { $what } ({ $error }): { $text }
export-no-clipboard = Tsy misy toerana handikana eto. { $what }: { $text }
export-saved = Voatahiry ao amin'ny { $path } ny { $what }
export-no-folder = Tsy misy lahatahirin'ny lalao. { $what }: { $text }
export-shown = { $outcome }: { $text }
