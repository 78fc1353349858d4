# The endgame trainer. $turn, $kept are turns in notation; $kind is a trainer-kind- message.
menu-trainer = Endgame trainer
trainer-title = Endgame trainer
trainer-new-position = New position
trainer-again = Again
trainer-leave = Leave
trainer-exercises = Exercises
# $player stones against $opponent.
trainer-kind-win = { $player } v { $opponent }: win
trainer-kind-draw = { $player } v { $opponent }: hold the draw
trainer-waiting = Waiting for the endgame tables.
# $side is a side's name, $turns the player's turns of the fastest win.
trainer-goal-win = { $kind }: { $side } to move wins in { $turns } turns with best play. Find the win against perfect defence.
trainer-goal-draw = { $kind }: { $side } to move can hold the draw. Avoid the turns that lose ({ $turns } turns to hold).
trainer-count = Your turns: { $turns } ({ $best } by the fastest way); the fastest win: { $fastest }
trainer-not-covered = { $turn }: the tables do not cover this position.
# $left: the player's turns still needed with best play.
trainer-keeps-win-fastest = { $turn } keeps the win, by the fastest way (won in { $left } more of your turns with best play).
trainer-keeps-win-slower = { $turn } keeps the win, though not the fastest way (won in { $left } more of your turns with best play).
trainer-keeps-draw = { $turn } keeps the draw.
# $before and $after are trainer-value- messages.
trainer-threw-away = { $turn } throws the { $before } away: the position is now a { $after } for you. { $kept } kept it. Again tries once more.
trainer-value-win = win
trainer-value-draw = draw
trainer-value-loss = loss
trainer-won = { $turns ->
    [one] You won in 1 turn; the fastest win takes { $fastest }.
   *[other] You won in { $turns } turns; the fastest win takes { $fastest }.
}
trainer-drawn = Drawn.
trainer-lost = Lost.
trainer-held = You held the draw for { $turns } turns: exercise done.
trainer-needs-tables = { $kind } needs the tables of { $stones } stones; these go up to { $max }.
trainer-no-position = No { $kind } position found in the tables.
# The tables: $dir is a folder, $stones the most stones.
trainer-tables-looking = Looking for endgame tables...
trainer-tables-reading = Reading the tables in { $dir }...
trainer-tables-missing = No endgame tables found (looked in { $dirs }). Build them here: they are kept for next time.
trainer-tables-building = Building the tables up to { $stones } stones in { $dir } ({ $percent }%); play on meanwhile.
trainer-tables-ready = Tables up to { $stones } stones ({ $dir })
trainer-tables-failed = The tables could not be used: { $error }
trainer-no-data-dir = no data folder to build the tables in
trainer-no-thread = cannot start a worker thread: { $error }
# The offer before building: $size on disk, $time of one processor core.
trainer-build = Build: tables up to { $stones } stones, { $size } on disk, { $time } of one processor core
trainer-mib = { $value } MiB
trainer-seconds = about { $seconds } s
trainer-minutes = about { $minutes } min
# An error in the library's words.
trainer-error-text = { $error }
