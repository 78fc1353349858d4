# Playing by keyboard and with a screen reader: the announcements of the live region, the
# point under the board's cursor, the look and text size settings.

# A turn in words. $side is a side's name (side-white, side-black), $path the points
# ("e2 to e3", access-path), $kinds the steps' kinds (access-kinds), $count the stones taken.
access-turn-capture = { $side } { $path }, { $kinds }, captures { $count }
access-turn-paika = { $side } { $path }, paika
access-turn-placement = { $side } places a stone on { $point }
# The path of a turn, point after point: "a1 to b1", then "a1 to b1 to b2".
access-path = { $path } to { $point }
# The kinds of a chain's steps, one after the other: "approach, withdrawal".
access-kinds = { $kinds }, { $kind }
access-kind-approach = approach
access-kind-withdrawal = withdrawal
access-kind-paika = paika

# Two sentences, one after the other (a turn, then whose turn it is).
access-sentences = { $first }. { $second }
access-taken-back = Turn taken back. { $next }
access-new-game = New game on the { $size } board. { $next }
access-loaded = { $turns ->
    [one] Game opened after 1 turn. { $next }
   *[other] Game opened after { $turns } turns. { $next }
}
access-game-screen = Game. { $next }. Arrow keys move the cursor on the board, Enter or Space selects a stone and steps, End ends a chain, A or W chooses approach or withdrawal, Tab reaches the buttons.

# The point under the keyboard cursor: its name, then what is there, separated by commas.
# A point's name (d3).
access-point = { $point }
access-list = { $list }, { $item }
access-white-stone = White stone
access-black-stone = Black stone
access-empty = empty
access-selected = selected
access-capturing = capturing stone: press Enter here or End to end the turn
access-can-capture = can capture
access-place-here = place a stone here
access-capture-here = capture here
access-move-here = move here
access-approach-line = approach line: Enter or A captures it
access-withdrawal-line = withdrawal line: Enter or W captures it
access-captured-last = captured last turn

# The board for the screen reader.
access-board = Board
access-board-cursor = Board, cursor on { $point }

# The menu's settings of the look.
access-contrast = High contrast
access-text-size = Text size
access-size-small = Small
access-size-normal = Normal
access-size-large = Large
access-size-huge = Huge
