# Le tutoriel : sept leçons, une règle chacune.

tutorial-back = < Précédente
tutorial-again = Recommencer
tutorial-next = Suivante >
tutorial-leave = Quitter
tutorial-lesson-title = Leçon { $number } sur { $count } : { $title }
tutorial-your-turn = À vous : { $task }
tutorial-done = Réussi. Suivante > ouvre la leçon suivante.
tutorial-done-last = Réussi : c'était la dernière leçon. Quitter ramène au menu.
tutorial-right = Bravo ! { $praise }
tutorial-not-quite = Pas tout à fait : { $why } La position est remise en place : essayez encore.
lesson-done = Leçon réussie : passez à la suivante quand vous voulez

list-nothing = rien
list-one = { $item }
list-and = { $items } et { $last }

lesson-captured-nothing = { $turn } n'a rien pris.
lesson-not-legal = { $turn } n'est pas permis ici.
lesson-wrong-stones = { $wanted ->
    [one] { $turn } a pris { $taken } en { $taken-points }, mais cette leçon demande la pierre en { $wanted-points }.
   *[other] { $turn } a pris { $taken } en { $taken-points }, mais cette leçon demande les pierres en { $wanted-points }.
}

lesson-paika-title = Paika : un déplacement simple
lesson-paika-rule = Une pierre avance d'un pas le long d'une ligne (les lignes du plateau) vers un point voisin libre. Quand aucune prise n'est possible nulle part, ce déplacement, appelé paika, est le coup joué.
lesson-paika-task = Cliquez votre pierre blanche, puis un des points marqués (ou tapez T puis un coup comme a1-b2).
lesson-paika-right = { $turn } est un paika : un pas le long d'une ligne vers un point libre, sans prise.
lesson-paika-wrong = { $turn } a pris ; cette leçon demande un paika.

lesson-approach-title = La prise par approche
lesson-approach-rule = Si une pierre s'arrête juste devant une pierre adverse, dans le sens de son déplacement, elle prend cette pierre et toutes les pierres adverses qui la suivent sur la même ligne, jusqu'au premier point vide ou à la première pierre amie.
lesson-approach-task = Prenez par approche les deux pierres noires en c3 et c4.
lesson-approach-right = { $turn } : votre pierre s'est arrêtée juste devant la ligne noire et a pris { $stones } par approche.
lesson-approach-wrong = { $turn } a pris par retrait, en s'éloignant d'une pierre. Ici, avancez vers une pierre noire pour arriver juste à côté d'elle, sur la même ligne.

lesson-withdrawal-title = La prise par retrait
lesson-withdrawal-rule = Si une pierre s'éloigne en ligne droite d'une pierre adverse qui la touche, elle prend cette pierre et toute la ligne continue de pierres adverses derrière elle.
lesson-withdrawal-task = Prenez par retrait les pierres noires en c3 et c4 : éloignez d'elles la pierre en c2.
lesson-withdrawal-right = { $turn } : votre pierre s'est éloignée tout droit des pierres noires et a pris { $stones } par retrait.
lesson-withdrawal-wrong = { $turn } a pris par approche (en avançant vers une pierre). Ici, éloignez une pierre qui touche une pierre noire, tout droit, le long de leur ligne.

lesson-choice-title = Approche ou retrait ?
lesson-choice-rule = Parfois un même pas prend des deux façons : il approche une ligne et s'éloigne d'une autre. Vous choisissez la ligne prise (jamais les deux).
lesson-choice-task = Jouez b3 en c3 et prenez la ligne la plus longue.
lesson-choice-right = { $turn } a choisi la ligne la plus longue : { $stones } au lieu d'une.
lesson-choice-wrong = { $turn } a pris { $stones } ; l'autre choix du même pas en prend { $best }. Quand un pas peut prendre des deux façons, vous choisissez (cliquez une pierre de la ligne, ou A / W).

lesson-chain-title = Les rafles
lesson-chain-rule = Après une prise, la même pierre peut reprendre, encore et encore. Deux limites : elle ne peut pas aller deux fois de suite dans la même direction, ni revenir sur un point déjà visité pendant ce coup. Vous pouvez arrêter la rafle à tout moment (Finir le coup, Espace).
lesson-chain-task = Prenez en un seul coup les deux pierres noires près de votre pierre.
lesson-chain-right = { $captures ->
    [one] { $turn } : une seule pierre, 1 prise. Elle n'est jamais allée deux fois de suite dans la même direction et n'est jamais revenue sur un point visité.
   *[other] { $turn } : une seule pierre, { $captures } prises de suite. Elle n'est jamais allée deux fois de suite dans la même direction et n'est jamais revenue sur un point visité.
}
lesson-chain-wrong = { $captures ->
    [one] { $turn } s'est arrêté après 1 prise : la même pierre pouvait reprendre. Après une prise, continuez à cliquer les points en surbrillance ; ne finissez le coup que si vous voulez vous arrêter.
   *[other] { $turn } s'est arrêté après { $captures } prises : la même pierre pouvait reprendre. Après une prise, continuez à cliquer les points en surbrillance ; ne finissez le coup que si vous voulez vous arrêter.
}

lesson-compulsory-title = La prise est obligatoire
lesson-compulsory-rule = Si une de vos pierres peut prendre, vous devez prendre (avec n'importe laquelle de ces pierres) ; le paika n'est permis que si aucune prise n'existe. Les pierres qui peuvent prendre sont entourées d'orange.
lesson-compulsory-task = Trouvez une prise.
lesson-compulsory-right = { $turn } a pris. Tant qu'une prise existe, le paika est interdit.
lesson-compulsory-wrong = { $turn } n'a rien pris.

lesson-ending-title = La fin de la partie
lesson-ending-rule = Vous gagnez en prenant toutes les pierres adverses, ou quand le joueur au trait ne peut plus jouer. Une position répétée trois fois, ou 100 coups de suite sans prise, donne une partie nulle.
lesson-ending-task = Gagnez la partie avec ce coup.
lesson-ending-right = { $turn } a pris la dernière pierre noire : Blanc gagne. Une partie se termine aussi quand le joueur au trait ne peut plus jouer ; elle est nulle quand une position revient trois fois ou après 100 coups sans prise.
lesson-ending-wrong = { $turn } laisse une pierre à Noir : la partie continue. Prenez la dernière pierre noire.
