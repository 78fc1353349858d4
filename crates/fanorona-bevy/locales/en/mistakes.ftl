# Learn from your mistakes. $turn, $played, $better are turns in notation; $number a turn's
# number (12. or 12...).
mistakes-offer = Learn from your mistakes ({ $count } to play again)
mistakes-title-heading = Learn from your mistakes
mistakes-title = Mistake { $number } of { $count }
mistakes-again = Again
mistakes-next = Next
mistakes-back = Back to the game
mistakes-describe = In the game, { $number } { $played }? was a mistake. Find a better turn for { $side }.
mistakes-checking = Checking { $turn }...
mistakes-right = Right: { $turn } is a good turn here. Next goes to the next mistake.
mistakes-right-first = Right: { $turn } is a good turn here, found at the first try. Next goes to the next mistake.
# $why is mistakes-why-same or mistakes-why-loses.
mistakes-wrong = Not this one: { $turn } { $why }. The better turn is { $better } (the arrow): play it.
mistakes-why-same = is the game's mistake again
mistakes-why-loses = loses much of the evaluation too
mistakes-count = Found at the first try: { $right } of { $count }
