// cardarena: the lost-cities observation, for JavaScript and TypeScript editors. Generated from
// the arena's Rust types (`arena schema --game lost-cities --ts`); do not edit.
// Arrays are 0-based: the entry of seat s is at [s]. Integers are numbers.

/** What one seat sees (docs/games/lost-cities.md lists every field). Cards are strings in the notation; per-seat arrays are indexed by seat; per-suit objects are keyed by suit letter. */
export interface LostCitiesObservation {
  /** Cards left in the deck. */
  deck_size: number;
  /** The suit the seat to move discarded on this turn (cannot be drawn from), else `null`. */
  discarded_this_turn?: LostCitiesSuit | null;
  /** Per suit: the discard pile, bottom..top (the last card is the one that can be drawn). */
  discards: LostCitiesBySuit;
  /** Per seat, per suit: the expedition, bottom..top. */
  expeditions: LostCitiesBySuit[];
  /** Always `"lost-cities"`. */
  game: string;
  /** This seat's hand, sorted (suit order, then `I`, 2..10). */
  hand: LostCitiesCard[];
  /** Cards in each seat's hand. */
  hand_sizes: number[];
  /** Every decision so far, oldest first. */
  history: LostCitiesEvent[];
  /** Per seat: cards it picked up from discard piles and still holds (sorted). */
  known_hands: LostCitiesCard[][];
  /** Legal actions for this seat (empty if not to act), in the documented order. */
  legal: string[];
  /** The game ends after this many turns (200) if the deck lasts. */
  max_turns: number;
  /** `"play"`, `"draw"` (the phase of the turn in progress) or `"over"`. */
  phase: LostCitiesPhase;
  /** Per seat: the score as it stands (final once over). */
  scores: number[];
  /** The seat this observation is for. */
  seat: number;
  /** The suits in play, in suit order. */
  suits: LostCitiesSuit[];
  /** The seat whose turn it is, `null` once over. */
  to_move?: number | null;
  /** Completed turns, both seats together (a turn = one play + one draw). */
  turn: number;
  /** `"classic"` or `"six-suits"`. */
  variant: LostCitiesVariant;
}

/** An action in the notation: "play 7D", "discard ID", "draw deck", "draw D". */
export type LostCitiesAction = string;

/** An object keyed by the suit letters in play. */
export type LostCitiesBySuit = Record<LostCitiesSuit, LostCitiesCard[]>;

/** A card: value then suit letter, `I` for an investment ("ID", "7O", "10V"). */
export type LostCitiesCard = string;

/** One public event of the match. */
export interface LostCitiesEvent {
  /** What they did, in the notation (`play 7D`, `discard ID`, `draw deck`, `draw D`). */
  action: LostCitiesAction;
  /** The card that moved, when it is public: the card played or discarded, the card picked up from a discard pile; `null` for a draw from the deck. */
  card?: LostCitiesCard | null;
  /** Who acted. */
  seat: number;
}

/** The phase of the turn in progress. */
export type LostCitiesPhase =
  | "play" // The seat to move plays or discards a card.
  | "draw" // The seat to move draws a card.
  | "over" // The match is over.
  ;

/** A suit letter: D (desert), O (ocean), M (mountain), J (jungle), V (volcano), P (purple, six-suits only). */
export type LostCitiesSuit =
  | "D"
  | "O"
  | "M"
  | "J"
  | "V"
  | "P"
  ;

/** The rule set. */
export type LostCitiesVariant =
  | "classic"
  | "six-suits"
  ;

/** What `init(info)` receives before the first decision. */
export interface InitInfo {
  game: string;
  variant: string;
  seat: number;
  players: number;
  seed: number;
}
