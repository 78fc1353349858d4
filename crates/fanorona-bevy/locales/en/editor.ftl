# The position editor.

editor-open = Position editor
editor-title = Position editor
editor-help = Click a point (or move the cursor with the arrows and press Enter) to put the chosen stone there; again to take it away.
    W, B, Delete: choose what to put. S: side to move. P: type a position string. Ctrl+V: paste one. Esc: menu.
# $size is the board's size (5x9).
editor-board = Board: { $size }
editor-game-capture = Game: Fanorona
editor-game-vela = Game: Vela
editor-game-telo = Game: Fanoron-Telo
editor-white-to-move = White to move [S]
editor-black-to-move = Black to move [S]
editor-put-white = Put White [W]
editor-put-black = Put Black [B]
editor-remove = Remove [Del]
# The chosen brush's button.
editor-chosen = > { $brush }
editor-clear = Clear
editor-reset = Start position
editor-play-engine = Play vs engine
editor-play-people = Play (two people)
editor-analyse = Analyse
editor-copy = Copy string
editor-paste = Paste [Ctrl+V]
editor-type = Type string [P]
editor-menu = Menu [Esc]

editor-stones = Stones: White { $white }, Black { $black }
# $fen is the position string.
editor-string = Position string: { $fen }
editor-entry = Type a position string: { $text }_ (Enter opens it, Esc closes)
# $side is a side's name.
editor-legal = Legal position, { $side } to move: play it, analyse it or copy it.
# $reason is the core's reason, in English.
editor-refused = Not a position: { $reason }.
editor-no-white = White has no stones: the game would already be over. Put at least one White stone.
editor-no-black = Black has no stones: the game would already be over. Put at least one Black stone.
# $result is the result in words (who wins and why).
editor-decided = The game is already over here ({ $result }) Change the stones or the side to move.
editor-not-playable = Cannot start from this position. { $reason }
editor-copied = Position string copied to the clipboard.
editor-no-clipboard = Position string not copied (no clipboard here); it is { $fen }
editor-opened = Position string opened. { $verdict }
# $text is what was pasted or typed, $reason the core's reason (in English).
editor-bad-string = "{ $text }": { $reason }
editor-no-paste = Nothing pasted: { $reason }
editor-no-clipboard-here = no clipboard here
editor-clipboard-silent = the clipboard did not answer
editor-opened-words = Position editor, { $size } board. Arrow keys move the cursor, Enter puts or removes a stone, W and B choose the colour, Delete removes, S changes the side to move, Tab reaches the buttons. { $verdict }
# After a press on a point: the point, what is there now, the verdict.
editor-pressed = { $point }, { $what }. { $verdict }
