# Mots communs à plusieurs parties du client.

language-name = Français

side-white = Blanc
side-black = Noir

stones-count = { $count ->
    [one] { $count } pierre
   *[other] { $count } pierres
}
