# The game: whose turn it is, what a click did, the result.
# $side is a side's name (side-white, side-black); $turn a turn in notation (c1-d2A),
# never translated; $point a point (e3); $error the rules library's own words (English).

flow-to-move = { $side } to move
flow-engine-to-move = { $side } (engine) to move
flow-to-place = { $side } to place a stone: click an empty point
flow-to-move-must-capture = { $side } to move: capturing is compulsory
flow-game-over = Game over: start a new game, undo, or review it [G].
flow-chain-continues = Chain continues: click a highlighted point or end the turn
flow-hint = Hint: { $turn } (the arrow on the board)
flow-looking-back-start = Looking back at the start of the game (Esc: back)
# $number is the turn's number (7. or 7...).
flow-looking-back = Looking back at the position after { $number } { $turn } (Esc: back)
flow-looking-back-click = Looking back: press Esc or click the last turn to play on
flow-looking-back-esc = Looking back: press Esc to play on
flow-wait-engine = Wait: the engine is to move
flow-answer-draw-first = Answer the draw offer first
flow-place-first = Place a stone first: click an empty point
flow-choose-line = Choose what to capture: click a stone of the approach or the withdrawal line (A / W)
flow-stone-is-capturing = This stone is capturing: click a highlighted point or end the turn (Space)
flow-only-capturing-stone = Only the capturing stone can move: continue the chain or end the turn (Space)
flow-selected = { $point } selected: click a highlighted point
flow-must-capture-marked = Capturing is compulsory: choose one of the marked stones
flow-no-free-point = This stone has no free point to move to
# $side is "white" or "black" here (the colour of the stone clicked).
flow-not-your-stone = { $side ->
    [white] That is a white stone
   *[black] That is a black stone
}
flow-illegal-step-must-capture = Not a legal step: capturing is compulsory
flow-illegal-step = Not a legal step for the selected stone
# $side is "white" or "black" here.
flow-select-first = { $side ->
    [white] Select a white stone first
   *[black] Select a black stone first
}
flow-chain-in-progress = A chain is in progress: continue it on the board, or undo it (U) and type the whole turn
# $text is what was typed, in quotes.
flow-typed-refused = { $text }: { $error }
flow-approach-or-withdrawal = Approach or withdrawal? Click a stone of the line to capture (A / W)
flow-not-allowed = Not allowed: { $error }
flow-continue-or-end = Continue capturing (click a highlighted point) or end the turn (Space)
flow-chain-must-continue = The chain must continue: click a highlighted point
flow-nothing-to-end = Nothing to end: no step played yet
flow-rules-require-continue = The rules require this chain to continue
flow-turn-refused = Turn refused: { $error }
flow-engine-turn-illegal = Engine turn { $turn } refused
flow-engine-turn-refused = Engine turn refused: { $error }
flow-refused = { $error }
flow-turn-taken-back = Turn in progress taken back
flow-nothing-to-undo = Nothing to undo
flow-nothing-to-redo = Nothing to redo
flow-only-person-resigns = Only a person can resign
flow-draw-two-people = Draw offers are between two people
# $side offers, $other answers.
flow-draw-offered = { $side } offers a draw: { $other } accepts or declines
# $message is the usual message (whose turn it is).
flow-draw-declined = Draw declined. { $message }

# The result line. $why is one of the end- messages.
result-wins = { $side } wins: { $why }.
result-draw = Draw: { $why }.
result-on-time = { $winner } wins: { $loser } ran out of time.
end-no-stones = all stones of the loser were captured
end-stuck = the side to move had no legal move
end-repetition = the same position came back again and again
end-no-capture-limit = too many turns without a capture
end-resignation = resignation
end-agreement = agreement
end-alignment = three stones in a line
# A reason in the rules library's own (English) words.
end-other = { $reason }

# Saving and loading. $path is a file's path, $name a file's name.
status-nothing-to-save = Nothing to save
status-saved = Saved to { $path }
status-cannot-save = Cannot save { $path }: { $error }
status-loaded = Loaded { $name }
# $loaded is status-loaded, $message the usual message.
status-loaded-message = { $loaded }. { $message }
status-cannot-read = Cannot read { $path }: { $error }
status-not-a-game = { $path } is not a valid game: { $error }

# Sound (the M key).
sound-off = Sound off (M: on)
sound-on = Sound on (M: off)
sound-on-silent = Sound on, but this build has no audio: build with --features sound

# Copying and saving the position or the record. $what is export-position or export-record;
# $text the position string or record itself.
export-position = Position string
export-record = Game record (FGN)
export-not-written = { $what } could not be written: { $error }
export-copied = { $what } copied to the clipboard
export-not-copied = { $what } not copied ({ $error }): { $text }
export-no-clipboard = No clipboard here. { $what }: { $text }
export-saved = { $what } saved to { $path }
export-no-folder = No games folder. { $what }: { $text }
# $outcome is one of the above, $text the position string.
export-shown = { $outcome }: { $text }
