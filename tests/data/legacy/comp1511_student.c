// intensity.c
// Assignment 2, COMP1511 18s1: Intensity
//
// A player for the Intensity referee, written the way the assignment asked: one run per
// decision, the referee's numbers on stdin, the answer on stdout. Nothing in it knows about
// cardarena; tests/legacy.rs compiles it unchanged for wasm32-wasi and plays a tournament.
//
// Written for cardarena's tests in the style of an 18s1 student submission (the starter code's
// layout and #defines, scanf of the whole input, assert-based unit tests for action 3).
//
// Version 1.0.1: Minor changes to wording of comments.
// Version 1.0.0: Assignment released.

#include <stdio.h>
#include <assert.h>

#define ACTION_PLAYER_NAME    0
#define ACTION_DISCARD        1
#define ACTION_PLAY_CARD      2
#define ACTION_UNIT_TESTS     3

#define N_CARDS              40
#define N_CARDS_INITIAL_HAND 10
#define N_PLAYERS             4
#define N_CARDS_DISCARDED     3

#define CARD_MIN             10
#define CARD_MAX             49

#define BUFFALO              47
#define CALF_MIN             30
#define CALF_MAX             39

#define TRUE                  1
#define FALSE                 0
#define NO_CARD              -1

void print_player_name(void);
void choose_discards(void);
void choose_card_to_play(void);
void run_unit_tests(void);

void read_cards(int n_cards, int cards[]);
int first_digit(int card);
int is_calf(int card);
int contains(int n_cards, int cards[], int card);
int choose_lead(int n_hand, int hand[], int calves_played);
int choose_follow(int n_hand, int hand[], int n_played, int played[]);
int choose_dump(int n_hand, int hand[]);
int winning_card(int n_played, int played[]);
int has_penalty(int n_played, int played[]);
void pick_discards(int hand[], int discards[]);

int main(void) {
    int which_action = 0;
    scanf("%d", &which_action);
    if (which_action == ACTION_PLAYER_NAME) {
        print_player_name();
    } else if (which_action == ACTION_DISCARD) {
        choose_discards();
    } else if (which_action == ACTION_PLAY_CARD) {
        choose_card_to_play();
    } else {
        run_unit_tests();
    }
    return 0;
}

void print_player_name(void) {
    printf("Stampede");
}

void choose_discards(void) {
    int hand[N_CARDS_INITIAL_HAND];
    read_cards(N_CARDS_INITIAL_HAND, hand);
    int discards[N_CARDS_DISCARDED];
    pick_discards(hand, discards);
    printf("%d %d %d\n", discards[0], discards[1], discards[2]);
}

void choose_card_to_play(void) {
    int n_cards_in_hand = 0;
    int n_cards_played = 0;
    int table_position = 0;
    scanf("%d %d %d", &n_cards_in_hand, &n_cards_played, &table_position);

    int hand[N_CARDS_INITIAL_HAND];
    read_cards(n_cards_in_hand, hand);

    int played[N_PLAYERS];
    read_cards(n_cards_played, played);

    int n_previous = (N_CARDS_INITIAL_HAND - n_cards_in_hand) * N_PLAYERS;
    int previous[N_CARDS];
    read_cards(n_previous, previous);

    int discarded[N_CARDS_DISCARDED];
    read_cards(N_CARDS_DISCARDED, discarded);

    int received[N_CARDS_DISCARDED];
    read_cards(N_CARDS_DISCARDED, received);

    int calves_played = FALSE;
    int i = 0;
    while (i < n_previous) {
        if (is_calf(previous[i])) {
            calves_played = TRUE;
        }
        i++;
    }

    int card = NO_CARD;
    if (n_cards_played == 0) {
        card = choose_lead(n_cards_in_hand, hand, calves_played);
    } else {
        card = choose_follow(n_cards_in_hand, hand, n_cards_played, played);
    }
    printf("%d\n", card);
}

void read_cards(int n_cards, int cards[]) {
    int i = 0;
    while (i < n_cards) {
        scanf("%d", &cards[i]);
        i++;
    }
}

int first_digit(int card) {
    return card / 10;
}

int is_calf(int card) {
    return card >= CALF_MIN && card <= CALF_MAX;
}

int contains(int n_cards, int cards[], int card) {
    int i = 0;
    while (i < n_cards) {
        if (cards[i] == card) {
            return TRUE;
        }
        i++;
    }
    return FALSE;
}

// The pass: the buffalo and the two cards above it, then the highest calves, then the cards
// with the highest last digit (the spec's example passes 29 39 49).
void pick_discards(int hand[], int discards[]) {
    int chosen[N_CARDS_INITIAL_HAND] = {0};
    int n_chosen = 0;
    int card = CARD_MAX;
    while (card >= BUFFALO && n_chosen < N_CARDS_DISCARDED) {
        int i = 0;
        while (i < N_CARDS_INITIAL_HAND) {
            if (hand[i] == card && !chosen[i]) {
                chosen[i] = TRUE;
                n_chosen++;
            }
            i++;
        }
        card--;
    }
    int digit = 9;
    while (digit >= 0 && n_chosen < N_CARDS_DISCARDED) {
        int i = N_CARDS_INITIAL_HAND - 1;
        while (i >= 0 && n_chosen < N_CARDS_DISCARDED) {
            if (!chosen[i] && hand[i] % 10 == digit && (digit >= 5 || is_calf(hand[i]))) {
                chosen[i] = TRUE;
                n_chosen++;
            }
            i--;
        }
        digit--;
    }
    digit = 9;
    while (digit >= 0 && n_chosen < N_CARDS_DISCARDED) {
        int i = N_CARDS_INITIAL_HAND - 1;
        while (i >= 0 && n_chosen < N_CARDS_DISCARDED) {
            if (!chosen[i] && hand[i] % 10 == digit) {
                chosen[i] = TRUE;
                n_chosen++;
            }
            i--;
        }
        digit--;
    }
    int j = 0;
    int i = 0;
    while (i < N_CARDS_INITIAL_HAND) {
        if (chosen[i]) {
            discards[j] = hand[i];
            j++;
        }
        i++;
    }
}

// Leading: the lowest card we may lead (calves only once one was played, or if that is all
// we have).
int choose_lead(int n_hand, int hand[], int calves_played) {
    int only_calves = TRUE;
    int i = 0;
    while (i < n_hand) {
        if (!is_calf(hand[i])) {
            only_calves = FALSE;
        }
        i++;
    }
    i = 0;
    while (i < n_hand) {
        if (!is_calf(hand[i]) || calves_played || only_calves) {
            if (hand[i] != BUFFALO || n_hand == 1) {
                return hand[i];
            }
        }
        i++;
    }
    // only the buffalo and calves we may not lead
    return BUFFALO;
}

int winning_card(int n_played, int played[]) {
    int winner = played[0];
    int i = 1;
    while (i < n_played) {
        if (first_digit(played[i]) == first_digit(played[0]) && played[i] > winner) {
            winner = played[i];
        }
        i++;
    }
    return winner;
}

int has_penalty(int n_played, int played[]) {
    int i = 0;
    while (i < n_played) {
        if (is_calf(played[i]) || played[i] == BUFFALO) {
            return TRUE;
        }
        i++;
    }
    return FALSE;
}

// Following: duck under the winning card if we can; last to play on a clean trick, win it with
// our highest; otherwise our lowest of the suit. Without the suit, dump.
int choose_follow(int n_hand, int hand[], int n_played, int played[]) {
    int suit = first_digit(played[0]);
    int winner = winning_card(n_played, played);
    int lowest = NO_CARD;
    int highest = NO_CARD;
    int duck = NO_CARD;
    int i = 0;
    while (i < n_hand) {
        if (first_digit(hand[i]) == suit) {
            if (lowest == NO_CARD) {
                lowest = hand[i];
            }
            highest = hand[i];
            if (hand[i] < winner) {
                duck = hand[i];
            }
        }
        i++;
    }
    if (lowest == NO_CARD) {
        return choose_dump(n_hand, hand);
    }
    if (n_played == N_PLAYERS - 1 && !has_penalty(n_played, played) && highest != BUFFALO) {
        return highest;
    }
    if (duck != NO_CARD) {
        return duck;
    }
    return lowest;
}

// Void in the led suit: the buffalo, then 49 and 48, then the highest calf, then the highest card.
int choose_dump(int n_hand, int hand[]) {
    if (contains(n_hand, hand, BUFFALO)) {
        return BUFFALO;
    }
    if (contains(n_hand, hand, 49)) {
        return 49;
    }
    if (contains(n_hand, hand, 48)) {
        return 48;
    }
    int i = n_hand - 1;
    while (i >= 0) {
        if (is_calf(hand[i])) {
            return hand[i];
        }
        i--;
    }
    return hand[n_hand - 1];
}

void run_unit_tests(void) {
    assert(first_digit(10) == 1);
    assert(first_digit(47) == 4);
    assert(is_calf(30) && is_calf(39) && !is_calf(47) && !is_calf(29));

    // the spec's discard example
    int hand[N_CARDS_INITIAL_HAND] = {13, 19, 24, 25, 29, 32, 39, 44, 46, 49};
    int discards[N_CARDS_DISCARDED];
    pick_discards(hand, discards);
    assert(discards[0] == 29 || discards[0] == 39);
    assert(contains(N_CARDS_DISCARDED, discards, 49));

    // the spec's play example: 23 is the only legal card
    int hand2[9] = {11, 15, 18, 23, 33, 34, 47, 48, 49};
    int played[2] = {24, 26};
    assert(choose_follow(9, hand2, 2, played) == 23);

    int calves[3] = {31, 35, 38};
    assert(choose_lead(3, calves, FALSE) == 31);
    int mixed[3] = {21, 35, 47};
    assert(choose_lead(3, mixed, FALSE) == 21);
    int trick[3] = {12, 45, 16};
    assert(choose_dump(3, mixed) == BUFFALO);
    assert(winning_card(3, trick) == 16);
    assert(has_penalty(3, trick) == FALSE);
}
