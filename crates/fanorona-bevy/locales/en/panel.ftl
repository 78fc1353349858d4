# The game screen's panels: buttons, whose turn, stones, clocks, analysis, list of turns.

panel-undo = Undo [U]
panel-redo = Redo [R]
panel-type-turn = Type turn [T]
panel-menu = Menu [Esc]
panel-hint = Hint [H]
panel-analysis = Analysis [E]
panel-review = Review [G]
panel-open = Open [O]
panel-copy-position = Copy position
# FGN is the name of the record format.
panel-copy-fgn = Copy FGN
panel-save-position = Save position
panel-save = Save [Ctrl+S]
panel-new-game = New game
panel-resign = Resign
panel-offer-draw = Offer draw
panel-end-turn = End turn [Space]
panel-approach = Approach [A]
panel-withdrawal = Withdrawal [W]
panel-accept-draw = Accept draw
panel-decline-draw = Decline
panel-help =
    Click a stone, then a marked point.
    Right drag, arrows: orbit. Wheel: zoom.
    , and . : look back. M: sound. Home: view.
panel-turns = Turns
panel-no-turns = No turns yet
panel-back-to-game = Back to the game [Esc]

# The line about whose turn it is. $number is a turn's number (7. or 7...).
panel-at-start = At the start: { $side } to move
panel-after-turn = After { $number }: { $side } to move
panel-game-over = Game over
panel-stones = Stones: White { $white }, Black { $black }
panel-person = person
panel-engine-level = engine level { $level }
# $white and $black are panel-person or panel-engine-level; $size the board (5x9).
panel-players = White: { $white }. Black: { $black }. Board { $size }.
# $dots are one to three dots, $seconds the time thinking so far.
panel-thinking = Engine thinking{ $dots } { $seconds } s
# $white and $black are the time left (4:59), with " <" on the clock that runs.
panel-clocks = White { $white }   Black { $black }
# $text is what was typed so far.
panel-type-a-turn = Type a turn: { $text } (Enter plays, Esc closes)

# Analysis mode.
panel-analysis-over = Analysis: the game is over
panel-analysis-thinking = Analysis: thinking...
panel-analysis-waits = Analysis waits for the position to settle
# $words is one of the eval- messages, $score the score (+1.25), $line turns in notation.
panel-evaluation =
    Evaluation: { $words } ({ $score } in stones for White; depth { $depth }, { $nodes } nodes)
    Best line: { $line }
panel-evaluation-thinking =
    Evaluation: { $words } ({ $score } in stones for White; depth { $depth }, thinking, { $nodes } nodes)
    Best line: { $line }
eval-equal = about equal
# $stones is the lead (1.25); $count is 1 when the lead is exactly one stone.
eval-ahead = { $count ->
    [one] { $side } is { $stones } stone ahead
   *[other] { $side } is { $stones } stones ahead
}
eval-wins-in = { $side } wins in { $turns }
