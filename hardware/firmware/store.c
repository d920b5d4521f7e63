/* EEPROM records: seq u32 | len u8 | state | undo snapshot | crc16, one per 32-byte slot, written round the 32
 * slots of the 1 KB EEPROM so each cell takes 1/32 of the writes (100,000 cycles each). The CRC
 * starts from the geometry id: a record of a board flashed with other wiring is never loaded.
 * A record cut short by a power cut fails its CRC and the one before it is used. */
#include <avr/eeprom.h>
#include <string.h>
#include "board.h"
#include "frame.h"
#include "store.h"

#define SLOT_SIZE 32
#define SLOTS ((E2END + 1) / SLOT_SIZE)
#define RECORD_UNDO (5 + STATE_LEN)
#define RECORD_LEN (RECORD_UNDO + UNDO_SNAPSHOT_LEN + 2)
_Static_assert(RECORD_LEN <= SLOT_SIZE, "a state record must fit its slot");

static uint8_t record[RECORD_LEN];
static uint8_t write_pos = RECORD_LEN; /* == RECORD_LEN: nothing being written */
static uint8_t next_slot;
static uint16_t write_addr;
uint32_t store_records;
uint16_t store_saves;

static uint16_t record_crc(const uint8_t *r) { return crc16(GEOMETRY_ID, r, RECORD_LEN - 2); }

uint8_t store_load(uint8_t *out, uint8_t *undo_out)
{
    uint8_t r[RECORD_LEN], found = 0;
    for (uint8_t slot = 0; slot < SLOTS; slot++) {
        eeprom_read_block(r, (const void *)(uint16_t)(slot * SLOT_SIZE), RECORD_LEN);
        uint16_t crc = r[RECORD_LEN - 2] | (uint16_t)r[RECORD_LEN - 1] << 8;
        uint32_t seq = r[0] | (uint32_t)r[1] << 8 | (uint32_t)r[2] << 16 | (uint32_t)r[3] << 24;
        if (r[4] != STATE_LEN || crc != record_crc(r) || (found && seq <= store_records))
            continue;
        found = 1;
        store_records = seq;
        next_slot = (uint8_t)((slot + 1) % SLOTS);
        memcpy(out, r + 5, STATE_LEN);
        memcpy(undo_out, r + RECORD_UNDO, UNDO_SNAPSHOT_LEN);
    }
    return found;
}

void store_begin(const uint8_t *s, const uint8_t *undo)
{
    store_records++;
    store_saves++;
    for (uint8_t i = 0; i < 4; i++)
        record[i] = (uint8_t)(store_records >> (8 * i));
    record[4] = STATE_LEN;
    memcpy(record + 5, s, STATE_LEN);
    memcpy(record + RECORD_UNDO, undo, UNDO_SNAPSHOT_LEN);
    uint16_t crc = record_crc(record);
    record[RECORD_LEN - 2] = (uint8_t)crc;
    record[RECORD_LEN - 1] = (uint8_t)(crc >> 8);
    write_addr = (uint16_t)next_slot * SLOT_SIZE;
    next_slot = (uint8_t)((next_slot + 1) % SLOTS);
    write_pos = 0;
}

void store_poll(void)
{
    if (write_pos < RECORD_LEN && eeprom_is_ready()) {
        eeprom_update_byte((uint8_t *)(write_addr + write_pos), record[write_pos]); /* skips equal bytes */
        write_pos++;
    }
}

uint8_t store_busy(void) { return write_pos < RECORD_LEN; }
