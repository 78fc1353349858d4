# Ny fampianarana: lesona fito, fitsipika iray isaky ny lesona.
# Fehezanteny fohy sy tsotra no natao. Tokony hojeren'ny olona miteny malagasy ho teny
# voalohany ireto.

tutorial-back = < Teo aloha
tutorial-again = Averina
tutorial-next = Manaraka >
tutorial-leave = Hiala
tutorial-lesson-title = Lesona { $number } amin'ny { $count }: { $title }
tutorial-your-turn = Anjaranao: { $task }
tutorial-done = Vita. Manaraka > no manokatra ny lesona manaraka.
tutorial-done-last = Vita: io no lesona farany. Hiala no miverina amin'ny safidy.
tutorial-right = Marina! { $praise }
tutorial-not-quite = Tsy izany: { $why } Naverina ny toerana: andramo indray.
lesson-done = Vita ny lesona: mandehana amin'ny manaraka rehefa vonona ianao

list-nothing = tsy misy
list-one = { $item }
list-and = { $items } sy { $last }

lesson-captured-nothing = Tsy nihinana na inona na inona ny { $turn }.
lesson-not-legal = Tsy azo atao eto ny { $turn }.
lesson-wrong-stones = { $wanted ->
    [one] Nihinana { $taken } amin'ny { $taken-points } ny { $turn }. Ny vato amin'ny { $wanted-points } anefa no angatahin'ity lesona ity.
   *[other] Nihinana { $taken } amin'ny { $taken-points } ny { $turn }. Ny vato amin'ny { $wanted-points } anefa no angatahin'ity lesona ity.
}

lesson-paika-title = Paika: famindrana tsotra
lesson-paika-rule = Mandeha dia iray amin'ny tsipika ny vato, mankany amin'ny teboka malalaka akaiky. Raha tsy misy fihinanana azo atao, io famindrana io, ny paika, no anjara.
lesson-paika-task = Tsindrio ny vato fotsinao, avy eo ny teboka voamarika iray (na T ary soraty ohatra hoe a1-b2).
lesson-paika-right = Paika ny { $turn }: dia iray amin'ny tsipika mankany amin'ny teboka malalaka, tsy mihinana.
lesson-paika-wrong = Nihinana ny { $turn }. Paika no angatahin'ity lesona ity.

lesson-approach-title = Mihinana amin'ny fanatonana
lesson-approach-rule = Rehefa mijanona eo akaikin'ny vaton'ny mpifanandrina ny vato, amin'ny lalana nalehany, dia hohaniny io vato io. Hohaniny koa ny vaton'ny mpifanandrina rehetra manaraka azy amin'io tsipika io, hatramin'ny banga voalohany na vato anao.
lesson-approach-task = Hano amin'ny fanatonana ireo vato mainty roa amin'ny c3 sy c4.
lesson-approach-right = { $turn }: nijanona teo akaikin'ny tsipika mainty ny vatonao ary nihinana { $stones } tamin'ny fanatonana.
lesson-approach-wrong = Nihinana tamin'ny fialana ny { $turn }: niala tamin'ny vato iray. Eto, manatona vato mainty iray, mba hijanona eo akaikiny amin'ny tsipika iray ihany.

lesson-withdrawal-title = Mihinana amin'ny fialana
lesson-withdrawal-rule = Rehefa miala mahitsy amin'ny vaton'ny mpifanandrina mifanakaiky aminy ny vato, dia hohaniny io vato io. Hohaniny koa ireo vaton'ny mpifanandrina tsy misy elanelana ao aoriany.
lesson-withdrawal-task = Hano amin'ny fialana ireo vato mainty amin'ny c3 sy c4: ampialao amin'izy ireo ny vato amin'ny c2.
lesson-withdrawal-right = { $turn }: niala mahitsy tamin'ny vato mainty ny vatonao ary nihinana { $stones } tamin'ny fialana.
lesson-withdrawal-wrong = Nihinana tamin'ny fanatonana ny { $turn } (nanatona vato iray). Eto, ampialao mahitsy ny vato mifanakaiky amin'ny vato mainty, amin'ny tsipikany.

lesson-choice-title = Manatona sa miala?
lesson-choice-rule = Indraindray, dia iray ihany no afaka mihinana amin'ny lafiny roa: manatona tsipika iray ary miala amin'ny tsipika hafa. Ianao no misafidy izay hohanina (tsy azo hanina izy roa).
lesson-choice-task = Afindrao any c3 ny b3 ary hano ny tsipika lava kokoa.
lesson-choice-right = Nifidy ny tsipika lava kokoa ny { $turn }: { $stones } fa tsy iray.
lesson-choice-wrong = Nihinana { $stones } ny { $turn }. Ny safidy iray hafa amin'io dia io ihany dia mihinana { $best }. Raha afaka mihinana amin'ny lafiny roa ny dia, ianao no misafidy (tsindrio vato iray amin'ny tsipika, na A / W).

lesson-chain-title = Fihinanana misesy
lesson-chain-rule = Aorian'ny fihinanana, afaka mihinana indray ilay vato ihany, ary indray. Fetra roa: tsy mandeha indroa misesy amin'ny lalana iray izy, ary tsy miverina amin'ny teboka efa nalehany tamin'io anjara io. Azonao atsahatra amin'ny fotoana rehetra (Vita ny anjara, Space).
lesson-chain-task = Hano ireo vato mainty roa akaikin'ny vatonao, amin'ny anjara iray.
lesson-chain-right = { $captures ->
    [one] { $turn }: vato iray, fihinanana 1. Tsy nandeha indroa misesy tamin'ny lalana iray izy ary tsy niverina tamin'ny teboka efa nalehany.
   *[other] { $turn }: vato iray, fihinanana { $captures } misesy. Tsy nandeha indroa misesy tamin'ny lalana iray izy ary tsy niverina tamin'ny teboka efa nalehany.
}
lesson-chain-wrong = { $captures ->
    [one] Nijanona taorian'ny fihinanana 1 ny { $turn }. Afaka nihinana indray anefa ilay vato. Aorian'ny fihinanana, tsindrio hatrany ny teboka mamirapiratra. Aza tapitra ny anjara raha tsy tianao hijanona.
   *[other] Nijanona taorian'ny fihinanana { $captures } ny { $turn }. Afaka nihinana indray anefa ilay vato. Aorian'ny fihinanana, tsindrio hatrany ny teboka mamirapiratra. Aza tapitra ny anjara raha tsy tianao hijanona.
}

lesson-compulsory-title = Tsy maintsy mihinana
lesson-compulsory-rule = Raha misy vatonao afaka mihinana, dia tsy maintsy mihinana ianao (amin'ny iray amin'ireo vato ireo). Azo atao ny paika raha tsy misy fihinanana mihitsy. Misy faribolana volomboasary manodidina ireo vato afaka mihinana.
lesson-compulsory-task = Mitadiava fihinanana.
lesson-compulsory-right = Nihinana ny { $turn }. Raha misy fihinanana azo atao, tsy azo atao ny paika.
lesson-compulsory-wrong = Tsy nihinana ny { $turn }.

lesson-ending-title = Ny fiafaran'ny lalao
lesson-ending-rule = Mandresy ianao raha lany hohaninao ny vaton'ny mpifanandrina, na raha tsy afaka mihetsika ilay tokony hilalao. Sahala ny lalao raha miverina intelo ny toerana iray, na raha misy anjara 100 misesy tsy misy fihinanana.
lesson-ending-task = Reseo ny lalao amin'ity anjara ity.
lesson-ending-right = Nihinana ny vato mainty farany ny { $turn }: mandresy ny Fotsy. Tapitra koa ny lalao raha tsy afaka mihetsika ilay tokony hilalao. Sahala izy raha miverina intelo ny toerana iray na aorian'ny anjara 100 tsy misy fihinanana.
lesson-ending-wrong = Mbola misy vato iray sisa ny Mainty taorian'ny { $turn }: mitohy ny lalao. Hano ny vato mainty farany.
