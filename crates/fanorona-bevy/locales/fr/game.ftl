# La partie : à qui de jouer, ce qu'a fait un clic, le résultat.

flow-to-move = { $side } joue
flow-engine-to-move = { $side } (ordinateur) joue
flow-to-place = { $side } pose une pierre : cliquez un point libre
flow-to-move-must-capture = { $side } joue : la prise est obligatoire
flow-game-over = Partie terminée : nouvelle partie, annuler, ou revue de la partie [G].
flow-chain-continues = La rafle continue : cliquez un point en surbrillance ou finissez le coup
flow-hint = Indice : { $turn } (la flèche sur le plateau)
flow-looking-back-start = Retour au début de la partie (Échap : revenir)
flow-looking-back = Position après { $number } { $turn } (Échap : revenir)
flow-looking-back-click = Vous regardez un coup passé : Échap ou cliquez le dernier coup pour reprendre
flow-looking-back-esc = Vous regardez un coup passé : Échap pour reprendre
flow-wait-engine = Patience : c'est à l'ordinateur de jouer
flow-answer-draw-first = Répondez d'abord à la proposition de nulle
flow-place-first = Posez d'abord une pierre : cliquez un point libre
flow-choose-line = Choisissez la prise : cliquez une pierre de la ligne d'approche ou de retrait (A / W)
flow-stone-is-capturing = Cette pierre est en train de prendre : cliquez un point en surbrillance ou finissez le coup (Espace)
flow-only-capturing-stone = Seule la pierre qui prend peut bouger : continuez la rafle ou finissez le coup (Espace)
flow-selected = { $point } choisie : cliquez un point en surbrillance
flow-must-capture-marked = La prise est obligatoire : choisissez une des pierres marquées
flow-no-free-point = Cette pierre n'a aucun point libre où aller
flow-not-your-stone = { $side ->
    [white] C'est une pierre blanche
   *[black] C'est une pierre noire
}
flow-illegal-step-must-capture = Déplacement interdit : la prise est obligatoire
flow-illegal-step = Déplacement interdit pour la pierre choisie
flow-select-first = { $side ->
    [white] Choisissez d'abord une pierre blanche
   *[black] Choisissez d'abord une pierre noire
}
flow-chain-in-progress = Une rafle est en cours : continuez-la sur le plateau, ou annulez-la (U) et saisissez le coup entier
flow-typed-refused = { $text } : { $error }
flow-approach-or-withdrawal = Approche ou retrait ? Cliquez une pierre de la ligne à prendre (A / W)
flow-not-allowed = Interdit : { $error }
flow-continue-or-end = Continuez à prendre (cliquez un point en surbrillance) ou finissez le coup (Espace)
flow-chain-must-continue = La rafle doit continuer : cliquez un point en surbrillance
flow-nothing-to-end = Rien à finir : aucun déplacement joué
flow-rules-require-continue = Les règles obligent cette rafle à continuer
flow-turn-refused = Coup refusé : { $error }
flow-engine-turn-illegal = Coup de l'ordinateur { $turn } refusé
flow-engine-turn-refused = Coup de l'ordinateur refusé : { $error }
flow-refused = { $error }
flow-turn-taken-back = Coup en cours annulé
flow-nothing-to-undo = Rien à annuler
flow-nothing-to-redo = Rien à rétablir
flow-only-person-resigns = Seul un joueur peut abandonner
flow-draw-two-people = La nulle se propose seulement entre deux joueurs
flow-draw-offered = { $side } propose la nulle : { $other } accepte ou refuse
flow-draw-declined = Nulle refusée. { $message }

result-wins = { $side } gagne : { $why }.
result-draw = Partie nulle : { $why }.
result-on-time = { $winner } gagne : { $loser } n'a plus de temps.
end-no-stones = toutes les pierres du perdant ont été prises
end-stuck = le camp au trait ne pouvait plus jouer
end-repetition = la même position est revenue encore et encore
end-no-capture-limit = trop de coups sans prise
end-resignation = abandon
end-agreement = accord des joueurs
end-alignment = trois pierres en ligne
end-other = { $reason }

status-nothing-to-save = Rien à enregistrer
status-saved = Enregistrée dans { $path }
status-cannot-save = Impossible d'enregistrer { $path } : { $error }
status-loaded = { $name } ouvert
status-loaded-message = { $loaded }. { $message }
status-cannot-read = Impossible de lire { $path } : { $error }
status-not-a-game = { $path } n'est pas une partie valide : { $error }

sound-off = Son coupé (M : remettre)
sound-on = Son activé (M : couper)
sound-on-silent = Son activé, mais cette version n'a pas d'audio : compilez avec --features sound

export-position = Position
export-record = Partie (FGN)
export-not-written = { $what } : impossible de l'écrire : { $error }
export-copied = { $what } copiée dans le presse-papiers
export-not-copied = { $what } non copiée ({ $error }) : { $text }
export-no-clipboard = Pas de presse-papiers ici. { $what } : { $text }
export-saved = { $what } enregistrée dans { $path }
export-no-folder = Pas de dossier de parties. { $what } : { $text }
export-shown = { $outcome } : { $text }
