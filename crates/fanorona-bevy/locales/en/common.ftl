# Words used by several features. Each feature keeps its own texts in its own file
# (menu.ftl, game.ftl, tutorial.ftl, ...), with ids starting with the feature's name.

# The name of each language, in that language (the menu shows it this way).
language-name = English

# The two sides, as a name ("White to move").
side-white = White
side-black = Black

# A number of stones: plurals.
stones-count = { $count ->
    [one] { $count } stone
   *[other] { $count } stones
}
