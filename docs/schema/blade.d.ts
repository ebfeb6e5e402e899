// cardarena: the blade observation, for JavaScript and TypeScript editors. Generated from
// the arena's Rust types (`arena schema --game blade --ts`); do not edit.
// Arrays are 0-based: the entry of seat s is at [s]. Integers are numbers.

/** What one seat sees (CONTRACT.md §2). Field order is the JSON order; see `docs/games/blade.md`. */
export interface BladeObservation {
  /** Cards left in each seat's deck. */
  deck_counts: number[];
  /** Both fields, in seat order, bottom card first. */
  fields: BladeFieldCard[][];
  /** Always `"blade"`. */
  game: string;
  /** This seat's hand, sorted 1..7, B, M. */
  hand: BladeCard[];
  /** Cards in each seat's hand. */
  hand_counts: number[];
  /** Every public event of the match, oldest first. */
  history: BladeEvent[];
  /** Every legal action for this seat: the distinct cards in hand, in the order 1..7, B, M. */
  legal: string[];
  /** `setup`, `turn` or `over`. */
  phase: BladePhase;
  /** How the match ended, `null` while it goes on. */
  result?: BladeEnding | null;
  /** Both field scores, in seat order. */
  scores: number[];
  /** The seat this observation is for. */
  seat: number;
  /** The seat whose decision is open, `null` once the match is over. */
  to_act?: number | null;
  /** The cards this seat has not seen (opponent's hand and both decks), sorted. */
  unseen: BladeCard[];
  /** The rule set. */
  variant: BladeVariant;
}

/** One Blade card. The derived order (`1` < … < `7` < `B` < `M`) is the order of hands and of `legal`. */
export type BladeCard =
  | "1" // `1`: revives the own bolted top card, else lies on the field worth 1.
  | "2" // `2`, worth 2.
  | "3" // `3`, worth 3.
  | "4" // `4`, worth 4.
  | "5" // `5`, worth 5.
  | "6" // `6`, worth 6.
  | "7" // `7`, worth 7.
  | "B" // `B`, Bolt: invalidates the opponent's top card. Worth 1 if placed at set-up.
  | "M" // `M`, Mirror: swaps the fields. Worth 1 if placed at set-up.
  ;

/** Why the match ended. */
export type BladeEndReason =
  | "fell_behind" // The mover's field stayed lower than the opponent's after its play.
  | "last_card_effect" // The mover played B or M as its last hand card.
  | "out_of_cards" // The mover's hand was empty at the start of its turn while the opponent still had cards.
  | "final_scores" // Both hands empty: the higher field wins, equal fields draw.
  | "setup_out_of_cards" // A seat had to set up with an empty deck and an empty hand.
  ;

/** How the match ended: the winner (`None` for a draw) and why. */
export interface BladeEnding {
  /** Why. */
  reason: BladeEndReason;
  /** The winning seat, `null` for a draw. */
  winner?: number | null;
}

/** One public event of the match, in the observation's `history`. */
export type BladeEvent =
  | {
    /** The card (B and M count 1 here). */
    card: BladeCard;
    /** Deck top or hand pick. */
    from: BladeSource;
    kind: "place";
    /** Whose field. */
    seat: number;
  }
  | {
    /** The card. */
    card: BladeCard;
    kind: "play";
    /** Field scores after the play (unchanged if it was a losing last-card B/M). */
    scores: number[];
    /** Who played. */
    seat: number;
  }
  | {
    kind: "reinit";
    /** The tied score. */
    score: number;
  };

/** A card lying on a field. */
export interface BladeFieldCard {
  /** The card. */
  card: BladeCard;
  /** `false` once bolted (then it is worth 0). */
  valid: boolean;
}

/** The phase named in observations. */
export type BladePhase =
  | "setup" // A set-up pick from hand is open (the deck of the seat to act is empty).
  | "turn" // A turn is open.
  | "over" // The match is over.
  ;

/** Where a set-up card came from. */
export type BladeSource =
  | "deck" // The top of the seat's deck (automatic).
  | "hand" // Chosen from the hand, because the deck was empty.
  ;

/** The rule set. */
export type BladeVariant =
  | "readme" // The newer seed README: 1×2, 2×3, 3×4, 4×4, 5×4, 6×3, 7×2, B×6, M×4; set-up with empty deck and empty hand is a draw; win 2, draw 1, loss 0.
  | "controller" // `controller.rb`: four 2s and three Mirrors; set-up with empty deck and empty hand loses unless the opponent is out of cards too (then a draw); win 2, draw 2 for both, loss 0.
  ;

/** What `init(info)` receives before the first decision. */
export interface InitInfo {
  game: string;
  variant: string;
  seat: number;
  players: number;
  seed: number;
}
