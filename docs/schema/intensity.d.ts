// cardarena: the intensity observation, for JavaScript and TypeScript editors. Generated from
// the arena's Rust types (`arena schema --game intensity --ts`); do not edit.
// Arrays are 0-based: the entry of seat s is at [s]. Integers are numbers.

/** What one seat sees: the JSON a bot receives. Every field is documented in docs/games/intensity.md; cards are numbers. */
export interface IntensityObservation {
  /** Whether a calf has been played in a finished trick (calves may then be led). */
  calves_broken: boolean;
  /** Cards in each seat's hand, in seat order. */
  cards_left: number[];
  /** The part of `penalties` that comes from faults (+5 each), in seat order. */
  fault_penalties: number[];
  /** Always `"intensity"`. */
  game: string;
  /** This seat's hand, ascending. */
  hand: IntensityCard[];
  /** Every legal action for this seat now (empty if it is not to act): pass, every ascending triple of the hand in lexicographic order; play, the playable cards ascending. */
  legal: string[];
  /** The seat this seat passes to (its left). */
  pass_to: number;
  /** The three cards this seat passed, ascending; empty until the pass is resolved. */
  passed: IntensityCard[];
  /** Penalty points per seat so far (tricks plus faults), in seat order. */
  penalties: number[];
  /** `"pass"`, `"play"` or `"over"`. */
  phase: IntensityPhase;
  /** The seat this seat receives from (its right). */
  receive_from: number;
  /** The three cards this seat received, ascending; empty until the pass is resolved. */
  received: IntensityCard[];
  /** The seat this observation is for. */
  seat: number;
  /** The current trick: its leader and the cards played so far, in order. */
  trick: IntensityCurrentTrick;
  /** Every finished trick, in order. */
  tricks: IntensityTrick[];
  /** The seat to play a card now (`null` in the pass phase and when the game is over). */
  turn?: number | null;
  /** `"standard"`. */
  variant: IntensityVariant;
}

/** One card, 10..49. Written as its number (`"33"`); in JSON it is the number itself. */
export type IntensityCard = number;

/** The trick being played. */
export interface IntensityCurrentTrick {
  /** The cards played so far, in play order (0..=3 of them). */
  cards: IntensityCard[];
  /** The seat that leads (or led) it; `cards[i]` was played by seat `(leader + i) % 4`. */
  leader: number;
}

/** The stage of the game. */
export type IntensityPhase =
  | "pass" // All four seats choose the cards they pass.
  | "play" // The ten tricks.
  | "over" // The game is over.
  ;

/** A finished trick, as the observation shows it. */
export interface IntensityTrick {
  /** The four cards in play order. */
  cards: IntensityCard[];
  /** The seat that led; `cards[i]` was played by seat `(leader + i) % 4`. */
  leader: number;
  /** The penalty points the winner took with it. */
  penalty: number;
  /** The seat that won it (played the highest card of the led suit). */
  winner: number;
}

/** The variants of Intensity: only the COMP1511 18s1 rules. */
export type IntensityVariant =
  | "standard" // The UNSW COMP1511 18s1 specification (CONTRACT.md §1 intensity).
  ;

/** What `init(info)` receives before the first decision. */
export interface InitInfo {
  game: string;
  variant: string;
  seat: number;
  players: number;
  seed: number;
}
