# The file browser that opens game records.

browser-title = Open a game record
browser-games-folder = Games folder
browser-home = Home
browser-start-folder = Start folder
browser-up = Up [Backspace]
browser-cancel = Cancel [Esc]
browser-folder = Folder: { $path }
# A row of the list: $mark shows the selected row ("> "), $name a file's name.
browser-parent = { $mark }..  (the folder above)
browser-folder-row = { $mark }{ $name }/
browser-record-row = { $mark }{ $name }
browser-empty = empty
# Rows $first to $last of $count.
browser-range = { $first }-{ $last } of { $count }
# $shown is browser-range or browser-empty; $left-out the files not listed; $extensions the
# extensions of record files.
browser-footer = { $left-out ->
    [0] { $shown }. Records: { $extensions }.
    [one] { $shown }; 1 other file not listed. Records: { $extensions }.
   *[other] { $shown }; { $left-out } other files not listed. Records: { $extensions }.
  }
    Click or Enter: open. Backspace: up. Letters: jump. Wheel, arrows, PageUp/PageDown: move.
