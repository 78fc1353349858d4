# Torohevitra, fandinihana ary famerenana ny lalao.

analysis-on = Mandeha ny dinika: dinihin'ny solosaina ny toerana (E: atsahatra)
analysis-off = Tapitra ny dinika
hint-none-over = Tsy misy torohevitra: vita ny lalao na mijery ny lasa ianao
hint-none-chain = Tsy misy torohevitra mandritra ny fihinanana: vitao na foano aloha
hint-none-engine = Tsy misy torohevitra: anjaran'ny solosaina
hint-looking = Mitady torohevitra...
score-stones = { $sign }{ $value }

review-on = Mandeha ny famerenana: tombanan'ny solosaina ny toerana tsirairay; tsindrio ny sary mba hankany (G: atsahatra)
review-off = Tapitra ny famerenana
review-summary = { $progress }: { $mistakes }. Tsindrio ny sary mba hankany amin'ny anjara iray.
review-done = Famerenana
review-progress = Famerenana (toerana { $done } amin'ny { $total })
review-no-mistakes = tsy nisy diso hita
review-mistakes-found = { $counts }: { $marks }
review-mistakes = { $count ->
   *[other] diso { $count }
}
review-blunders = { $count ->
   *[other] diso be { $count }
}
review-mark = { $played }
review-mark-better = { $played } (tsara kokoa: { $better })
list-comma = { $list }, { $item }
list-ellipsis = { $list }, ...
# A finished game's result in notation (1-0, 0-1, 1/2-1/2).
score-result = { $result }
