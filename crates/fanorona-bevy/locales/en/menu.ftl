# The menu screen: new game settings, the tutorial's offer, saved games.

# The game's name, the same in every language.
app-title = Fanorona
menu-subtitle = The board game of Madagascar

menu-tutorial-offer = New to Fanorona? Seven short lessons teach the rules on small boards.
menu-tutorial-start = Start the tutorial
menu-start = Start new game [Ctrl+N]
menu-tutorial = Tutorial
menu-quit = Quit
menu-continue = Back to the game [Esc]
menu-saved-games = Saved games
menu-open-file = Open a file... [O]
menu-no-saved-games = No saved games yet (Save during a game)
# A saved game's button; $name is its file name.
menu-load = Load { $name }

# The settings' names.
menu-players = Players
menu-side = Your colour
menu-level = Engine level
menu-game = Game
menu-board = Board
menu-opening = Opening restriction
menu-opening-help = First turn of each side: one capture, no chain
menu-continuation = Compulsory continuation
menu-continuation-help = A stone that can capture again must go on
menu-stuck = Player who cannot move
menu-animation = Animation speed
menu-clock = Clocks
menu-sound = Sound
menu-language = Language

# The settings' values.
menu-on = On
menu-off = Off
menu-sound-silent = On (this build is silent)
mode-human-vs-engine = Person vs engine
mode-two-players = Two players
mode-engine-vs-engine = Engine vs engine
menu-side-white = White (moves first)
menu-side-black = Black
# $level is 1 to 4, $name the level's name.
menu-level-value = { $level } ({ $name })
level-beginner = beginner
level-casual = casual
level-strong = strong
level-maximum = maximum
menu-game-capture = Fanorona
menu-game-vela = Vela (handicap: White gives stones away)
menu-game-telo = Fanoron-Telo (3x3, three in a line)
# $size is the board's size, such as 5x9.
menu-board-tsivy = { $size } Fanoron-Tsivy
menu-board-dimy = { $size } Fanoron-Dimy
menu-board-telo = { $size } (Fanoron-Telo's board)
menu-board-3x3 = { $size } (Fanorona-3x3)
menu-board-other = { $size }
menu-stuck-loses = Loses
menu-stuck-draws = Draws
animation-slow = Slow
animation-normal = Normal
animation-fast = Fast
animation-off = Off
clock-off = Off
# A time control: $minutes for the game, $increment seconds added each turn (0: none).
clock-control = { $increment ->
    [0] { $minutes } min
   *[other] { $minutes } min + { $increment } s a turn
}

# The dialog that asks before a game is thrown away.
confirm-resign = Resign this game?
confirm-resign-yes = Resign [Enter]
confirm-new-game = Start a new game? The game in progress ends.
confirm-new-game-yes = New game [Enter]
confirm-cancel = Cancel [Esc]
