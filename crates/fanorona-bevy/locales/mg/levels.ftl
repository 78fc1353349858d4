levels-level = Haavon'ny solosaina: { $number } { $name } (Elo { $elo })
levels-rating = { $games ->
   *[other] Ny naotinao: { $elo } +/- { $error } avy amin'ny lalao { $games } nifanandrina tamin'ny milina
}
levels-no-rating = Ny naotinao: vitao lalao iray manohitra ny milina vao hahazo izany
level-novice = vao vao
level-learner = mpianatra
level-improver = mandroso
level-apprentice = mpanazatra
level-amateur = mpankafy
level-hobbyist = mpilalao matetika
level-intermediate = antonony
level-regular = mahazatra
level-club = klioba
level-advanced = efa lavitra
