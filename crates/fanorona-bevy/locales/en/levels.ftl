# The level slider. $name is the level's name (novice, beginner, ...), $elo its Elo.
levels-level = Engine level: { $number } { $name } (Elo { $elo })
levels-rating = { $games ->
    [one] Your rating: { $elo } +/- { $error } from 1 game against the engine
   *[other] Your rating: { $elo } +/- { $error } from { $games } games against the engine
}
levels-no-rating = Your rating: finish a game against the engine to get one
level-novice = novice
level-learner = learner
level-improver = improver
level-apprentice = apprentice
level-amateur = amateur
level-hobbyist = hobbyist
level-intermediate = intermediate
level-regular = regular
level-club = club
level-advanced = advanced
