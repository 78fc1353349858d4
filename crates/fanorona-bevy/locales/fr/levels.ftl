levels-level = Niveau de l'ordinateur : { $number } { $name } (Elo { $elo })
levels-rating = { $games ->
    [one] Votre classement : { $elo } +/- { $error } sur 1 partie contre l'ordinateur
   *[other] Votre classement : { $elo } +/- { $error } sur { $games } parties contre l'ordinateur
}
levels-no-rating = Votre classement : terminez une partie contre l'ordinateur pour en obtenir un
level-novice = novice
level-learner = apprenti
level-improver = en progrès
level-apprentice = initié
level-amateur = amateur
level-hobbyist = passionné
level-intermediate = intermédiaire
level-regular = habitué
level-club = club
level-advanced = avancé
