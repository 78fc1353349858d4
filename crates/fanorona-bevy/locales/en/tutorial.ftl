# The tutorial: seven lessons, one rule each. $turn is a turn in notation (a1-b2), never
# translated; $stones is a stones-count message.

tutorial-back = < Back
tutorial-again = Again
tutorial-next = Next >
tutorial-leave = Leave
# $number of $count; $title is the lesson's title.
tutorial-lesson-title = Lesson { $number } of { $count }: { $title }
tutorial-your-turn = Your turn: { $task }
tutorial-done = Done. Next > opens the next lesson.
tutorial-done-last = Done: that was the last lesson. Leave returns to the menu.
# $praise says what was right.
tutorial-right = Right! { $praise }
# $why says what was wrong.
tutorial-not-quite = Not quite: { $why } The position is set up again: try once more.
lesson-done = Lesson done: Next lesson when you are ready

# Lists of points: "c3", "c3 and c4", "c3, c4 and c5".
list-nothing = nothing
list-one = { $item }
list-and = { $items } and { $last }

lesson-captured-nothing = { $turn } captured nothing.
lesson-not-legal = { $turn } is not legal here.
# $taken is a stones-count; $wanted the number of stones asked for.
lesson-wrong-stones = { $wanted ->
    [one] { $turn } captured { $taken } on { $taken-points }, but this lesson asks for the stone on { $wanted-points }.
   *[other] { $turn } captured { $taken } on { $taken-points }, but this lesson asks for the stones on { $wanted-points }.
}

lesson-paika-title = Paika: an ordinary move
lesson-paika-rule = Stones move one step along a line (the lines on the board) to a free neighbouring point. When no capture is possible anywhere, such a move, a paika, is the turn.
lesson-paika-task = Click your white stone, then one of the marked points (or type a turn such as a1-b2 after T).
lesson-paika-right = { $turn } is a paika move: one step along a line to a free point, capturing nothing.
lesson-paika-wrong = { $turn } captured; this lesson asks for a paika move.

lesson-approach-title = Capture by approach
lesson-approach-rule = Moving a stone to a point right next to an enemy stone, in the direction of the move, captures that stone and every enemy stone directly behind it on the same line, up to the first gap or own stone.
lesson-approach-task = Capture the two black stones on c3 and c4 by approach.
lesson-approach-right = { $turn }: your stone stopped right next to the black line and captured { $stones } by approach.
lesson-approach-wrong = { $turn } captured by withdrawal: moving away from a stone. Here move towards a black stone, so that your stone lands next to it on the same line.

lesson-withdrawal-title = Capture by withdrawal
lesson-withdrawal-rule = Moving a stone directly away from an enemy stone that touches it captures that stone and the unbroken line of enemy stones behind it.
lesson-withdrawal-task = Capture the black stones on c3 and c4 by withdrawal: move the stone on c2 away from them.
lesson-withdrawal-right = { $turn }: your stone stepped straight away from the black stones and captured { $stones } by withdrawal.
lesson-withdrawal-wrong = { $turn } captured by approach (moving towards a stone). Here move a stone that touches a black stone directly away from it, along their line.

lesson-choice-title = Approach or withdrawal?
lesson-choice-rule = Sometimes one step captures both ways: it approaches one line and withdraws from another. You choose which line is captured (never both).
lesson-choice-task = Move b3 to c3 and capture the larger line.
lesson-choice-right = { $turn } chose the larger line: { $stones } instead of 1.
# $best is the number of stones the other choice captures.
lesson-choice-wrong = { $turn } captured { $stones }; the other choice of the same step captures { $best }. When a step can capture both ways, you choose (click a stone of the line, or A / W).

lesson-chain-title = Chains
lesson-chain-rule = After a capture the same stone may capture again, and again. Two restrictions: it may not move twice in a row in the same direction, and it may not return to a point it has visited this turn. You may stop the chain at any time (End turn, Space).
lesson-chain-task = Capture both black stones near your stone in one turn.
# $captures is the number of captures in the chain.
lesson-chain-right = { $captures ->
    [one] { $turn }: one stone, 1 capture in a row. It never moved in the same direction twice in a row and never came back to a point it had visited.
   *[other] { $turn }: one stone, { $captures } captures in a row. It never moved in the same direction twice in a row and never came back to a point it had visited.
}
lesson-chain-wrong = { $captures ->
    [one] { $turn } ended after 1 capture: the same stone could have captured again. After a capture keep clicking the highlighted points; end the turn only when you want to stop.
   *[other] { $turn } ended after { $captures } captures: the same stone could have captured again. After a capture keep clicking the highlighted points; end the turn only when you want to stop.
}

lesson-compulsory-title = Capturing is compulsory
lesson-compulsory-rule = If any of your stones can capture, you must capture (with any such stone); paika moves are allowed only when no capture exists. The stones that can capture are ringed in orange.
lesson-compulsory-task = Find a capture.
lesson-compulsory-right = { $turn } captured. While any capture exists, a paika move is not allowed.
lesson-compulsory-wrong = { $turn } did not capture.

lesson-ending-title = How a game ends
lesson-ending-rule = You win by capturing all the enemy's stones, or when the player to move has no legal move. A position repeated three times, or 100 turns in a row without a capture, is a draw.
lesson-ending-task = Win the game in this turn.
lesson-ending-right = { $turn } took Black's last stone: White wins. A game also ends when the player to move cannot move, and is drawn when a position repeats three times or after 100 turns without a capture.
lesson-ending-wrong = { $turn } leaves Black a stone: the game goes on. Capture the last black stone.
