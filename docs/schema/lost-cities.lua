---@meta
-- cardarena: the lost-cities observation, for the Lua language server (VS Code: the "Lua"
-- extension by sumneko). Generated from the arena's Rust types by `arena new` (the same
-- text as `arena schema --game lost-cities --lua`); do not edit.
-- Arrays are 1-based Lua sequences: the entry of seat s is at [s + 1]. JSON null is nil.

--- What one seat sees (docs/games/lost-cities.md lists every field). Cards are strings in the notation; per-seat arrays are indexed by seat; per-suit objects are keyed by suit letter.
---@class LostCitiesObservation
---@field deck_size integer Cards left in the deck.
---@field discarded_this_turn LostCitiesSuit? The suit the seat to move discarded on this turn (cannot be drawn from), else `null`.
---@field discards LostCitiesBySuit Per suit: the discard pile, bottom..top (the last card is the one that can be drawn).
---@field expeditions LostCitiesBySuit[] Per seat, per suit: the expedition, bottom..top.
---@field game string Always `"lost-cities"`.
---@field hand LostCitiesCard[] This seat's hand, sorted (suit order, then `I`, 2..10).
---@field hand_sizes integer[] Cards in each seat's hand.
---@field history LostCitiesEvent[] Every decision so far, oldest first.
---@field known_hands LostCitiesCard[][] Per seat: cards it picked up from discard piles and still holds (sorted).
---@field legal string[] Legal actions for this seat (empty if not to act), in the documented order.
---@field max_turns integer The game ends after this many turns (200) if the deck lasts.
---@field phase LostCitiesPhase `"play"`, `"draw"` (the phase of the turn in progress) or `"over"`.
---@field scores integer[] Per seat: the score as it stands (final once over).
---@field seat integer The seat this observation is for.
---@field suits LostCitiesSuit[] The suits in play, in suit order.
---@field to_move integer? The seat whose turn it is, `null` once over.
---@field turn integer Completed turns, both seats together (a turn = one play + one draw).
---@field variant LostCitiesVariant `"classic"` or `"six-suits"`.

--- An action in the notation: "play 7D", "discard ID", "draw deck", "draw D".
---@alias LostCitiesAction string

--- An object keyed by the suit letters in play.
---@alias LostCitiesBySuit table<LostCitiesSuit, LostCitiesCard[]>

--- A card: value then suit letter, `I` for an investment ("ID", "7O", "10V").
---@alias LostCitiesCard string

--- One public event of the match.
---@class LostCitiesEvent
---@field action LostCitiesAction What they did, in the notation (`play 7D`, `discard ID`, `draw deck`, `draw D`).
---@field card LostCitiesCard? The card that moved, when it is public: the card played or discarded, the card picked up from a discard pile; `null` for a draw from the deck.
---@field seat integer Who acted.

--- The phase of the turn in progress.
---@alias LostCitiesPhase
---| "play" # The seat to move plays or discards a card.
---| "draw" # The seat to move draws a card.
---| "over" # The match is over.

--- A suit letter: D (desert), O (ocean), M (mountain), J (jungle), V (volcano), P (purple, six-suits only).
---@alias LostCitiesSuit
---| "D"
---| "O"
---| "M"
---| "J"
---| "V"
---| "P"

--- The rule set.
---@alias LostCitiesVariant
---| "classic"
---| "six-suits"
