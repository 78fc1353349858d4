# Teny ampiasain'ny faritra maro amin'ny rindrankajy.
# Tokony hojeren'ny olona miteny malagasy ho teny voalohany ity lahatsoratra ity.

language-name = Malagasy

side-white = Fotsy
side-black = Mainty

# Tsy miova ny anarana amin'ny isa maro amin'ny teny malagasy.
stones-count = vato { $count }
