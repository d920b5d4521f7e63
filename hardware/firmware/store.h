/* The state kept in EEPROM across resets and power cuts: CRC-checked, wear-levelled records. */
#ifndef STORE_H
#define STORE_H
#include <stdint.h>

/* Finds the newest valid record; copies its state (STATE_LEN bytes) and undo snapshot
 * (UNDO_SNAPSHOT_LEN) out. 1 if found. */
uint8_t store_load(uint8_t *state_out, uint8_t *undo_out);
/* Starts writing a new record in the next slot; the writing goes on in store_poll. */
void store_begin(const uint8_t *state, const uint8_t *undo);
/* Writes one byte when the EEPROM is ready (never waits: a byte takes 3.4 ms). */
void store_poll(void);
uint8_t store_busy(void);
extern uint32_t store_records; /* records ever written (the newest record's number) */
extern uint16_t store_saves;   /* records written since power-up */
#endif
