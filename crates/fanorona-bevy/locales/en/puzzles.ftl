# The Puzzles screen. $turn, $solution are turns in notation; $id a puzzle's id.
menu-puzzles = Puzzles
puzzles-title = Puzzles
puzzles-next = Next puzzle
puzzles-daily = Daily puzzle
puzzles-again = Again
puzzles-leave = Leave
puzzles-board-all = Board: all
puzzles-board = Board: { $board }
puzzles-theme-any = Theme: any
puzzles-theme = Theme: { $theme }
# $board is the board size (5x9); $themes the puzzle's themes, in the puzzle format's words.
puzzles-heading = Puzzle { $id } ({ $board }, rated { $rating })
puzzles-heading-themes = Puzzle { $id } ({ $board }, rated { $rating }; { $themes })
puzzles-heading-daily = Daily puzzle { $id } ({ $board }, rated { $rating })
puzzles-heading-daily-themes = Daily puzzle { $id } ({ $board }, rated { $rating }; { $themes })
puzzles-task = { $side } to move: find the winning turn (a chain goes on to its end).
puzzles-again-unrated = Again (not rated): { $task }
puzzles-rating = Your rating: { $rating } +/- { $error }. Streak { $streak } (best { $best }).
# $change is the rating's change, with its sign (+12, -8).
puzzles-rating-change = Rating { $rating } ({ $change }).
puzzles-solved = Solved: { $turn } wins. { $rating }
puzzles-solved-shown = { $turn }: that is the solution (not rated again).
puzzles-stopped-early = { $turn } stops the chain too early.
puzzles-not-solution = { $turn } is not the solution.
puzzles-that-step = That step
# $why is puzzles-stopped-early or puzzles-not-solution; $rating a rating change or nothing.
puzzles-missed = Missed: { $why } { $rating } The solution: { $solution } (the arrow).
puzzles-none = No puzzle with these filters.
puzzles-or = { $list } or { $item }
puzzles-turn = { $turn }
