# Analysis mode's several lines (MultiPV). $count is the number of lines.
analysis-lines = { $count ->
    [one] Analysis shows the best line
   *[other] Analysis shows the best { $count } lines
}
analysis-fewer-lines = Fewer lines
analysis-more-lines = More lines
# The heading above several lines: $words is one of the eval- messages.
panel-evaluation-lines = Evaluation: { $words } (depth { $depth }, { $nodes } nodes)
panel-evaluation-lines-thinking = Evaluation: { $words } (depth { $depth }, thinking, { $nodes } nodes)
# One line: $number from 1, $score for White (+0.35), $depth, $line turns in notation.
panel-analysis-line = { $number }) { $score } d{ $depth }: { $line }
