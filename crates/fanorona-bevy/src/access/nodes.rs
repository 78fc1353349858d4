//! The screen reader's view of the client, through Bevy's accessibility support (`bevy_a11y`,
//! AccessKit): every button is a `Button` node labelled with its text (a menu setting with
//! its name: "Players: Person vs engine"), every text outside a button a `Label` node with the
//! text as its value, the board a `Group` node labelled with the cursor's point, and the
//! [`LiveRegion`] a polite `Status` node whose value is the newest announcement. The keyboard
//! focus ([`Focus`], or the board while the cursor has it) is AccessKit's focus
//! (`InputFocus`, which `bevy_winit` sends to the screen reader). A screen reader's "click" on
//! a button presses it ([`Act`]), its "focus" focuses it.

use accesskit::{Action as AxAction, Live, Node as AxNode, Role};
use bevy::a11y::{AccessibilityNode, ActionRequest};
use bevy::prelude::*;
use bevy_input_focus::InputFocus;

use super::{Announcer, BoardCursor, BoardNode, LiveRegion, words};
use crate::Screen;
use crate::board::CoordLabel;
use crate::game::flow::BoardView;
use crate::i18n::{Msg, Tr};
use crate::ui::widgets::{Act, Action, ConfirmAnswer, Focus, Focusable};

/// The text of an entity and its descendants, in order, joined by spaces.
fn text_of(entity: Entity, children: &Query<&Children>, texts: &Query<&Text>) -> String {
    let mut parts = Vec::new();
    let mut stack = vec![entity];
    while let Some(e) = stack.pop() {
        if let Ok(t) = texts.get(e)
            && !t.0.is_empty()
        {
            parts.push(t.0.clone());
        }
        if let Ok(c) = children.get(e) {
            stack.extend(c.iter().rev());
        }
    }
    parts.join(" ")
}

/// The first non-empty text of an entity and its descendants.
fn first_text(entity: Entity, children: &Query<&Children>, texts: &Query<&Text>) -> String {
    let mut stack = vec![entity];
    while let Some(e) = stack.pop() {
        if let Ok(t) = texts.get(e)
            && !t.0.is_empty()
        {
            return t.0.clone();
        }
        if let Ok(c) = children.get(e) {
            stack.extend(c.iter().rev());
        }
    }
    String::new()
}

/// The name a button is read with: its text; a menu setting's button (its value) is named
/// with the setting's name, the first text of its row.
fn button_label(
    entity: Entity,
    action: Option<&Action>,
    parent: Option<&ChildOf>,
    children: &Query<&Children>,
    texts: &Query<&Text>,
) -> String {
    let own = text_of(entity, children, texts);
    if let (Some(Action::Cycle(_)), Some(parent)) = (action, parent)
        && let Ok(row) = children.get(parent.parent())
        && let Some(first) = row.iter().next()
        && first != entity
    {
        // The setting's name is the first text of the row (its help line follows it).
        let name = first_text(first, children, texts);
        return format!("{name}: {own}");
    }
    own
}

/// Gives every button its AccessKit node and keeps its label up to date.
fn label_buttons(
    mut commands: Commands,
    mut buttons: Query<
        (
            Entity,
            Option<&Action>,
            Option<&ChildOf>,
            Option<&mut AccessibilityNode>,
        ),
        With<Button>,
    >,
    children: Query<&Children>,
    texts: Query<&Text>,
) {
    for (entity, action, parent, node) in &mut buttons {
        let label = button_label(entity, action, parent, &children, &texts);
        match node {
            Some(mut node) => {
                if node.role() != Role::Button {
                    node.set_role(Role::Button);
                }
                if node.label() != Some(label.as_str()) {
                    node.set_label(label);
                }
                if !node.supports_action(AxAction::Click) {
                    node.add_action(AxAction::Click);
                    node.add_action(AxAction::Focus);
                }
            }
            None => {
                let mut node = AxNode::new(Role::Button);
                node.set_label(label);
                node.add_action(AxAction::Click);
                node.add_action(AxAction::Focus);
                commands
                    .entity(entity)
                    .try_insert(AccessibilityNode::from(node));
            }
        }
    }
}

/// Texts outside buttons (and the board's coordinates) are `Label` nodes with their text.
fn label_texts(
    mut commands: Commands,
    mut texts: Query<
        (
            Entity,
            &Text,
            Option<&ChildOf>,
            Option<&mut AccessibilityNode>,
        ),
        (Changed<Text>, Without<Button>),
    >,
    parents: Query<(Has<Button>, Has<CoordLabel>)>,
) {
    for (entity, text, parent, node) in &mut texts {
        if parent.is_some_and(|p| parents.get(p.parent()).is_ok_and(|(b, c)| b || c)) {
            continue;
        }
        match node {
            Some(mut node) => {
                if node.value() != Some(text.0.as_str()) {
                    node.set_value(text.0.clone());
                }
            }
            None => {
                let mut node = AxNode::new(Role::Label);
                node.set_value(text.0.clone());
                commands
                    .entity(entity)
                    .try_insert(AccessibilityNode::from(node));
            }
        }
    }
}

/// The live region's and the board's nodes.
fn spawn_nodes(mut commands: Commands) {
    let mut live = AxNode::new(Role::Status);
    live.set_live(Live::Polite);
    commands.spawn((
        LiveRegion,
        // i18n: not text (an entity's name, for debugging)
        Name::new("announcements"),
        AccessibilityNode::from(live),
    ));
    let mut board = AxNode::new(Role::Group);
    board.set_label(words::board_label(None).to_string());
    board.add_action(AxAction::Focus);
    commands.spawn((
        BoardNode,
        // i18n: not text (an entity's name, for debugging)
        Name::new("board"),
        AccessibilityNode::from(board),
    ));
}

/// The live region's value is the newest announcement; the board's label names the point
/// under the cursor.
fn update_nodes(
    announcer: Res<Announcer>,
    tr: Option<Res<Tr>>,
    cursor: Res<BoardCursor>,
    view: Res<BoardView>,
    mut live: Query<&mut AccessibilityNode, (With<LiveRegion>, Without<BoardNode>)>,
    mut board: Query<&mut AccessibilityNode, (With<BoardNode>, Without<LiveRegion>)>,
) {
    let render = |msg: &Msg| {
        tr.as_deref()
            .map_or_else(|| msg.to_string(), |tr| tr.msg(msg))
    };
    let language = tr.as_ref().is_some_and(|tr| tr.is_changed());
    if announcer.is_changed() || language {
        for mut node in &mut live {
            node.set_value(render(&announcer.msg));
        }
    }
    if cursor.is_changed() || view.is_changed() || language {
        let label = render(&words::board_label(
            cursor
                .point
                .filter(|_| cursor.shown)
                .map(|p| words::point_words(&view, p)),
        ));
        for mut node in &mut board {
            if node.label() != Some(label.as_str()) {
                node.set_label(label.clone());
            }
        }
    }
}

/// AccessKit's focus follows the keyboard focus: the focused button, or the board on the
/// screens that have one while the cursor has the focus.
fn sync_focus(
    focus: Res<Focus>,
    screen: Res<State<Screen>>,
    board: Query<Entity, With<BoardNode>>,
    mut input_focus: ResMut<InputFocus>,
) {
    let wanted = focus.0.or_else(|| {
        matches!(screen.get(), Screen::Playing | Screen::Editor)
            .then(|| board.iter().next())
            .flatten()
    });
    if input_focus.get() != wanted {
        // A fresh value: nobody reads the focus-change events here (no `InputFocusPlugin`).
        *input_focus = wanted.map_or_else(InputFocus::default, InputFocus::from_entity);
    }
}

/// A screen reader's click presses a button, its focus request focuses it.
fn screen_reader_actions(
    mut requests: MessageReader<ActionRequest>,
    buttons: Query<(Option<&Action>, Option<&ConfirmAnswer>, Has<Focusable>)>,
    mut confirm: ResMut<crate::ui::widgets::Confirm>,
    mut focus: ResMut<Focus>,
    mut acts: MessageWriter<Act>,
) {
    for request in requests.read() {
        let Some(entity) = Entity::try_from_bits(request.target_node.0) else {
            continue;
        };
        let Ok((action, answer, focusable)) = buttons.get(entity) else {
            continue;
        };
        match request.action {
            AxAction::Click => {
                if let Some(ConfirmAnswer(yes)) = answer {
                    if let Some(action) = confirm.0.take()
                        && *yes
                    {
                        acts.write(Act {
                            action,
                            confirmed: true,
                        });
                    }
                } else if let Some(action) = action {
                    acts.write(Act::new(action.clone()));
                }
            }
            AxAction::Focus if focusable => focus.0 = Some(entity),
            _ => {}
        }
    }
}

/// The screen reader's plugin.
pub fn plugin(app: &mut App) {
    app.init_resource::<InputFocus>()
        .add_message::<ActionRequest>()
        .add_systems(Startup, spawn_nodes)
        .add_systems(
            Update,
            screen_reader_actions.before(crate::ui::widgets::WidgetKeys),
        )
        .add_systems(
            PostUpdate,
            (label_buttons, label_texts, update_nodes, sync_focus)
                .after(bevy::ui::UiSystems::PostLayout)
                .after(crate::i18n::I18nSet)
                .before(bevy::a11y::AccessibilitySystems::Update),
        );
}
