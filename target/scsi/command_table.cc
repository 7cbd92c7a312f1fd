#include "target/scsi/command_table.h"

#include <algorithm>

#include "modepages/bytes.h"
#include "target/scsi/lun.h"

namespace memstore::scsi {
namespace {

using D = DataDirection;
using A = Access;
using U = LengthUnit;
using M = Media;
constexpr std::uint8_t kFF = 0xFF;

// Usage masks list, per CDB byte, the bits this target interprets (SPC-4
// §6.35.3, CDB USAGE DATA); everything else is reserved or unsupported
// (RDPROTECT/WRPROTECT, ANCHOR, NACA and LINK in CONTROL) and must be zero.
// Byte 0 is the opcode.
//
// An entry names the fields it sets; the rest keep CommandSpec's defaults
// (no field, no medium access, untimed). g++ before 14 warns about every
// member a designated initialiser leaves out, which here is the point.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
constexpr CommandSpec kCommands[] = {
    {.name = "TEST UNIT READY",
     .opcode = 0x00,
     .cdb_length = 6,
     .direction = D::kNone,
     .usage = {kFF, 0, 0, 0, 0, 0},
     .handler = &Lun::test_unit_ready,
     .access = A::kAnyPersistent},
    {.name = "REQUEST SENSE",
     .opcode = 0x03,
     .cdb_length = 6,
     .direction = D::kIn,
     .usage = {kFF, 0x01, 0, 0, kFF, 0},
     .length = {4, 1},
     .unit = U::kAllocation,
     .handler = &Lun::request_sense,
     .access = A::kAny},
    {.name = "READ(6)",
     .opcode = 0x08,
     .cdb_length = 6,
     .direction = D::kIn,
     .usage = {kFF, 0x1F, kFF, kFF, kFF, 0},
     .lba = {1, 3, 21},
     .length = {4, 1},
     .unit = U::kBlocksZeroIs256,
     .media = M::kRead,
     .timed = true,
     .handler = &Lun::read,
     .access = A::kRead},
    {.name = "WRITE(6)",
     .opcode = 0x0A,
     .cdb_length = 6,
     .direction = D::kOut,
     .usage = {kFF, 0x1F, kFF, kFF, kFF, 0},
     .lba = {1, 3, 21},
     .length = {4, 1},
     .unit = U::kBlocksZeroIs256,
     .media = M::kWrite,
     .timed = true,
     .handler = &Lun::write,
     .access = A::kWrite},
    {.name = "INQUIRY",
     .opcode = 0x12,
     .cdb_length = 6,
     .direction = D::kIn,
     .usage = {kFF, 0x01, kFF, kFF, kFF, 0},
     .length = {3, 2},
     .unit = U::kAllocation,
     .handler = &Lun::inquiry,
     .access = A::kAny},
    {.name = "MODE SELECT(6)",
     .opcode = 0x15,
     .cdb_length = 6,
     .direction = D::kOut,
     .usage = {kFF, 0x11, 0, 0, kFF, 0},
     .length = {4, 1},
     .unit = U::kParameterList,
     .handler = &Lun::mode_select,
     .access = A::kWrite},
    {.name = "RESERVE(6)",
     .opcode = 0x16,
     .cdb_length = 6,
     .direction = D::kNone,
     .usage = {kFF, 0, 0, 0, 0, 0},
     .handler = &Lun::reserve,
     .access = A::kReserveRelease},
    {.name = "RELEASE(6)",
     .opcode = 0x17,
     .cdb_length = 6,
     .direction = D::kNone,
     .usage = {kFF, 0, 0, 0, 0, 0},
     .handler = &Lun::release,
     .access = A::kReserveRelease},
    {.name = "MODE SENSE(6)",
     .opcode = 0x1A,
     .cdb_length = 6,
     .direction = D::kIn,
     .usage = {kFF, 0x08, kFF, kFF, kFF, 0},
     .length = {4, 1},
     .unit = U::kAllocation,
     .handler = &Lun::mode_sense,
     .access = A::kRead},
    {.name = "START STOP UNIT",
     .opcode = 0x1B,
     .cdb_length = 6,
     .direction = D::kNone,
     .usage = {kFF, 0x01, 0, 0x0F, 0xF7, 0},
     .handler = &Lun::start_stop_unit,
     .access = A::kStartStop},
    {.name = "PREVENT ALLOW MEDIUM REMOVAL",
     .opcode = 0x1E,
     .cdb_length = 6,
     .direction = D::kNone,
     .usage = {kFF, 0, 0, 0, 0x03, 0},
     .handler = &Lun::prevent_allow_removal,
     .access = A::kPreventAllow},
    {.name = "READ CAPACITY(10)",
     .opcode = 0x25,
     .cdb_length = 10,
     .direction = D::kIn,
     .usage = {kFF, 0, kFF, kFF, kFF, kFF, 0, 0, 0x01, 0},
     .lba = {2, 4},
     .handler = &Lun::read_capacity10,
     .access = A::kAny},
    {.name = "READ(10)",
     .opcode = 0x28,
     .cdb_length = 10,
     .direction = D::kIn,
     .usage = {kFF, 0x1C, kFF, kFF, kFF, kFF, 0x1F, kFF, kFF, 0},
     .lba = {2, 4},
     .length = {7, 2},
     .unit = U::kBlocks,
     .media = M::kRead,
     .timed = true,
     .handler = &Lun::read,
     .access = A::kRead},
    {.name = "WRITE(10)",
     .opcode = 0x2A,
     .cdb_length = 10,
     .direction = D::kOut,
     .usage = {kFF, 0x18, kFF, kFF, kFF, kFF, 0x1F, kFF, kFF, 0},
     .lba = {2, 4},
     .length = {7, 2},
     .unit = U::kBlocks,
     .media = M::kWrite,
     .timed = true,
     .handler = &Lun::write,
     .access = A::kWrite},
    {.name = "WRITE AND VERIFY(10)",
     .opcode = 0x2E,
     .cdb_length = 10,
     .direction = D::kOut,
     .usage = {kFF, 0x16, kFF, kFF, kFF, kFF, 0x1F, kFF, kFF, 0},
     .lba = {2, 4},
     .length = {7, 2},
     .unit = U::kBlocks,
     .media = M::kWrite,
     .timed = true,
     .handler = &Lun::write_and_verify,
     .access = A::kWrite},
    {.name = "VERIFY(10)",
     .opcode = 0x2F,
     .cdb_length = 10,
     .direction = D::kOut,
     .usage = {kFF, 0x16, kFF, kFF, kFF, kFF, 0x1F, kFF, kFF, 0},
     .lba = {2, 4},
     .length = {7, 2},
     .unit = U::kBytchkBlocks,
     .media = M::kRead,
     .timed = true,
     .handler = &Lun::verify,
     .access = A::kRead},
    {.name = "SYNCHRONIZE CACHE(10)",
     .opcode = 0x35,
     .cdb_length = 10,
     .direction = D::kNone,
     .usage = {kFF, 0x02, kFF, kFF, kFF, kFF, 0x1F, kFF, kFF, 0},
     .lba = {2, 4},
     .length = {7, 2},
     .unit = U::kBlocks,
     .handler = &Lun::synchronize_cache,
     .access = A::kWrite},
    {.name = "WRITE BUFFER",
     .opcode = 0x3B,
     .cdb_length = 10,
     .direction = D::kOut,
     .usage = {kFF, 0x7F, kFF, kFF, kFF, kFF, kFF, kFF, kFF, 0},
     .length = {6, 3},
     .unit = U::kParameterList,
     .timed = true,
     .handler = &Lun::write_buffer,
     .access = A::kWrite},
    {.name = "READ BUFFER",
     .opcode = 0x3C,
     .cdb_length = 10,
     .direction = D::kIn,
     .usage = {kFF, 0x1F, kFF, kFF, kFF, kFF, kFF, kFF, kFF, 0},
     .length = {6, 3},
     .unit = U::kAllocation,
     .handler = &Lun::read_buffer,
     .access = A::kRead},
    {.name = "WRITE SAME(10)",
     .opcode = 0x41,
     .cdb_length = 10,
     .direction = D::kOut,
     .usage = {kFF, 0x08, kFF, kFF, kFF, kFF, 0x1F, kFF, kFF, 0},
     .lba = {2, 4},
     .length = {7, 2},
     .unit = U::kPatternBlocks,
     .media = M::kWrite,
     .timed = true,
     .handler = &Lun::write_same,
     .access = A::kWrite},
    {.name = "UNMAP",
     .opcode = 0x42,
     .cdb_length = 10,
     .direction = D::kOut,
     .usage = {kFF, 0, 0, 0, 0, 0, 0x1F, kFF, kFF, 0},
     .length = {7, 2},
     .unit = U::kParameterList,
     .handler = &Lun::unmap,
     .access = A::kWrite},
    {.name = "LOG SENSE",
     .opcode = 0x4D,
     .cdb_length = 10,
     .direction = D::kIn,
     .usage = {kFF, 0x02, kFF, kFF, 0, kFF, kFF, kFF, kFF, 0},
     .length = {7, 2},
     .unit = U::kAllocation,
     .handler = &Lun::log_sense,
     .access = A::kAny},
    {.name = "MODE SELECT(10)",
     .opcode = 0x55,
     .cdb_length = 10,
     .direction = D::kOut,
     .usage = {kFF, 0x11, 0, 0, 0, 0, 0, kFF, kFF, 0},
     .length = {7, 2},
     .unit = U::kParameterList,
     .handler = &Lun::mode_select,
     .access = A::kWrite},
    {.name = "RESERVE(10)",
     .opcode = 0x56,
     .cdb_length = 10,
     .direction = D::kNone,
     .usage = {kFF, 0, 0, 0, 0, 0, 0, 0, 0, 0},
     .handler = &Lun::reserve,
     .access = A::kReserveRelease},
    {.name = "RELEASE(10)",
     .opcode = 0x57,
     .cdb_length = 10,
     .direction = D::kNone,
     .usage = {kFF, 0, 0, 0, 0, 0, 0, 0, 0, 0},
     .handler = &Lun::release,
     .access = A::kReserveRelease},
    {.name = "MODE SENSE(10)",
     .opcode = 0x5A,
     .cdb_length = 10,
     .direction = D::kIn,
     .usage = {kFF, 0x18, kFF, kFF, 0, 0, 0, kFF, kFF, 0},
     .length = {7, 2},
     .unit = U::kAllocation,
     .handler = &Lun::mode_sense,
     .access = A::kRead},
    {.name = "PERSISTENT RESERVE IN/READ KEYS",
     .opcode = 0x5E,
     .service_action = 0x00,
     .cdb_length = 10,
     .direction = D::kIn,
     .usage = {kFF, 0x1F, 0, 0, 0, 0, 0, kFF, kFF, 0},
     .length = {7, 2},
     .unit = U::kAllocation,
     .handler = &Lun::persistent_reserve_in,
     .access = A::kAnyPersistent},
    {.name = "PERSISTENT RESERVE IN/READ RESERVATION",
     .opcode = 0x5E,
     .service_action = 0x01,
     .cdb_length = 10,
     .direction = D::kIn,
     .usage = {kFF, 0x1F, 0, 0, 0, 0, 0, kFF, kFF, 0},
     .length = {7, 2},
     .unit = U::kAllocation,
     .handler = &Lun::persistent_reserve_in,
     .access = A::kAnyPersistent},
    {.name = "PERSISTENT RESERVE IN/REPORT CAPABILITIES",
     .opcode = 0x5E,
     .service_action = 0x02,
     .cdb_length = 10,
     .direction = D::kIn,
     .usage = {kFF, 0x1F, 0, 0, 0, 0, 0, kFF, kFF, 0},
     .length = {7, 2},
     .unit = U::kAllocation,
     .handler = &Lun::persistent_reserve_in,
     .access = A::kAnyPersistent},
    {.name = "PERSISTENT RESERVE IN/READ FULL STATUS",
     .opcode = 0x5E,
     .service_action = 0x03,
     .cdb_length = 10,
     .direction = D::kIn,
     .usage = {kFF, 0x1F, 0, 0, 0, 0, 0, kFF, kFF, 0},
     .length = {7, 2},
     .unit = U::kAllocation,
     .handler = &Lun::persistent_reserve_in,
     .access = A::kAnyPersistent},
    {.name = "PERSISTENT RESERVE OUT/REGISTER",
     .opcode = 0x5F,
     .service_action = 0x00,
     .cdb_length = 10,
     .direction = D::kOut,
     .usage = {kFF, 0x1F, kFF, 0, 0, kFF, kFF, kFF, kFF, 0},
     .length = {5, 4},
     .unit = U::kParameterList,
     .handler = &Lun::persistent_reserve_out,
     .access = A::kPersistentOut},
    {.name = "PERSISTENT RESERVE OUT/RESERVE",
     .opcode = 0x5F,
     .service_action = 0x01,
     .cdb_length = 10,
     .direction = D::kOut,
     .usage = {kFF, 0x1F, kFF, 0, 0, kFF, kFF, kFF, kFF, 0},
     .length = {5, 4},
     .unit = U::kParameterList,
     .handler = &Lun::persistent_reserve_out,
     .access = A::kPersistentOut},
    {.name = "PERSISTENT RESERVE OUT/RELEASE",
     .opcode = 0x5F,
     .service_action = 0x02,
     .cdb_length = 10,
     .direction = D::kOut,
     .usage = {kFF, 0x1F, kFF, 0, 0, kFF, kFF, kFF, kFF, 0},
     .length = {5, 4},
     .unit = U::kParameterList,
     .handler = &Lun::persistent_reserve_out,
     .access = A::kPersistentOut},
    {.name = "PERSISTENT RESERVE OUT/CLEAR",
     .opcode = 0x5F,
     .service_action = 0x03,
     .cdb_length = 10,
     .direction = D::kOut,
     .usage = {kFF, 0x1F, kFF, 0, 0, kFF, kFF, kFF, kFF, 0},
     .length = {5, 4},
     .unit = U::kParameterList,
     .handler = &Lun::persistent_reserve_out,
     .access = A::kPersistentOut},
    {.name = "PERSISTENT RESERVE OUT/PREEMPT",
     .opcode = 0x5F,
     .service_action = 0x04,
     .cdb_length = 10,
     .direction = D::kOut,
     .usage = {kFF, 0x1F, kFF, 0, 0, kFF, kFF, kFF, kFF, 0},
     .length = {5, 4},
     .unit = U::kParameterList,
     .handler = &Lun::persistent_reserve_out,
     .access = A::kPersistentOut},
    {.name = "PERSISTENT RESERVE OUT/PREEMPT AND ABORT",
     .opcode = 0x5F,
     .service_action = 0x05,
     .cdb_length = 10,
     .direction = D::kOut,
     .usage = {kFF, 0x1F, kFF, 0, 0, kFF, kFF, kFF, kFF, 0},
     .length = {5, 4},
     .unit = U::kParameterList,
     .handler = &Lun::persistent_reserve_out,
     .access = A::kPersistentOut},
    {.name = "PERSISTENT RESERVE OUT/REGISTER AND IGNORE EXISTING KEY",
     .opcode = 0x5F,
     .service_action = 0x06,
     .cdb_length = 10,
     .direction = D::kOut,
     .usage = {kFF, 0x1F, kFF, 0, 0, kFF, kFF, kFF, kFF, 0},
     .length = {5, 4},
     .unit = U::kParameterList,
     .handler = &Lun::persistent_reserve_out,
     .access = A::kPersistentOut},
    {.name = "READ(16)",
     .opcode = 0x88,
     .cdb_length = 16,
     .direction = D::kIn,
     .usage = {kFF, 0x1C, kFF, kFF, kFF, kFF, kFF, kFF, kFF, kFF, kFF, kFF, kFF, kFF, 0x1F, 0},
     .lba = {2, 8},
     .length = {10, 4},
     .unit = U::kBlocks,
     .media = M::kRead,
     .timed = true,
     .handler = &Lun::read,
     .access = A::kRead},
    {.name = "COMPARE AND WRITE",
     .opcode = 0x89,
     .cdb_length = 16,
     .direction = D::kOut,
     .usage = {kFF, 0x18, kFF, kFF, kFF, kFF, kFF, kFF, kFF, kFF, 0, 0, 0, kFF, 0x1F, 0},
     .lba = {2, 8},
     .length = {13, 1},
     .unit = U::kBlockPairs,
     .media = M::kWrite,
     .timed = true,
     .handler = &Lun::compare_and_write,
     .access = A::kWrite},
    {.name = "WRITE(16)",
     .opcode = 0x8A,
     .cdb_length = 16,
     .direction = D::kOut,
     .usage = {kFF, 0x18, kFF, kFF, kFF, kFF, kFF, kFF, kFF, kFF, kFF, kFF, kFF, kFF, 0x1F, 0},
     .lba = {2, 8},
     .length = {10, 4},
     .unit = U::kBlocks,
     .media = M::kWrite,
     .timed = true,
     .handler = &Lun::write,
     .access = A::kWrite},
    {.name = "ORWRITE(16)",
     .opcode = 0x8B,
     .cdb_length = 16,
     .direction = D::kOut,
     .usage = {kFF, 0x18, kFF, kFF, kFF, kFF, kFF, kFF, kFF, kFF, kFF, kFF, kFF, kFF, 0x1F, 0},
     .lba = {2, 8},
     .length = {10, 4},
     .unit = U::kBlocks,
     .media = M::kWrite,
     .timed = true,
     .handler = &Lun::orwrite,
     .access = A::kWrite},
    {.name = "WRITE AND VERIFY(16)",
     .opcode = 0x8E,
     .cdb_length = 16,
     .direction = D::kOut,
     .usage = {kFF, 0x16, kFF, kFF, kFF, kFF, kFF, kFF, kFF, kFF, kFF, kFF, kFF, kFF, 0x1F, 0},
     .lba = {2, 8},
     .length = {10, 4},
     .unit = U::kBlocks,
     .media = M::kWrite,
     .timed = true,
     .handler = &Lun::write_and_verify,
     .access = A::kWrite},
    {.name = "VERIFY(16)",
     .opcode = 0x8F,
     .cdb_length = 16,
     .direction = D::kOut,
     .usage = {kFF, 0x16, kFF, kFF, kFF, kFF, kFF, kFF, kFF, kFF, kFF, kFF, kFF, kFF, 0x1F, 0},
     .lba = {2, 8},
     .length = {10, 4},
     .unit = U::kBytchkBlocks,
     .media = M::kRead,
     .timed = true,
     .handler = &Lun::verify,
     .access = A::kRead},
    {.name = "SYNCHRONIZE CACHE(16)",
     .opcode = 0x91,
     .cdb_length = 16,
     .direction = D::kNone,
     .usage = {kFF, 0x02, kFF, kFF, kFF, kFF, kFF, kFF, kFF, kFF, kFF, kFF, kFF, kFF, 0x1F, 0},
     .lba = {2, 8},
     .length = {10, 4},
     .unit = U::kBlocks,
     .handler = &Lun::synchronize_cache,
     .access = A::kWrite},
    {.name = "WRITE SAME(16)",
     .opcode = 0x93,
     .cdb_length = 16,
     .direction = D::kOut,
     .usage = {kFF, 0x09, kFF, kFF, kFF, kFF, kFF, kFF, kFF, kFF, kFF, kFF, kFF, kFF, 0x1F, 0},
     .lba = {2, 8},
     .length = {10, 4},
     .unit = U::kPatternBlocks,
     .media = M::kWrite,
     .timed = true,
     .handler = &Lun::write_same,
     .access = A::kWrite},
    {.name = "READ CAPACITY(16)",
     .opcode = 0x9E,
     .service_action = 0x10,
     .cdb_length = 16,
     .direction = D::kIn,
     .usage = {kFF, 0x1F, kFF, kFF, kFF, kFF, kFF, kFF, kFF, kFF, kFF, kFF, kFF, kFF, 0x01, 0},
     .lba = {2, 8},
     .length = {10, 4},
     .unit = U::kAllocation,
     .handler = &Lun::read_capacity16,
     .access = A::kAny},
    {.name = "GET LBA STATUS",
     .opcode = 0x9E,
     .service_action = 0x12,
     .cdb_length = 16,
     .direction = D::kIn,
     .usage = {kFF, 0x1F, kFF, kFF, kFF, kFF, kFF, kFF, kFF, kFF, kFF, kFF, kFF, kFF, 0, 0},
     .lba = {2, 8},
     .length = {10, 4},
     .unit = U::kAllocation,
     .handler = &Lun::get_lba_status,
     .access = A::kRead},
    {.name = "REPORT LUNS",
     .opcode = 0xA0,
     .cdb_length = 12,
     .direction = D::kIn,
     .usage = {kFF, 0, kFF, 0, 0, 0, kFF, kFF, kFF, kFF, 0, 0},
     .length = {6, 4},
     .unit = U::kAllocation,
     .handler = &Lun::report_luns,
     .access = A::kAny},
    {.name = "REPORT SUPPORTED OPERATION CODES",
     .opcode = 0xA3,
     .service_action = 0x0C,
     .cdb_length = 12,
     .direction = D::kIn,
     .usage = {kFF, 0x1F, 0x87, kFF, kFF, kFF, kFF, kFF, kFF, kFF, 0, 0},
     .length = {6, 4},
     .unit = U::kAllocation,
     .handler = &Lun::report_supported_opcodes,
     .access = A::kRead},
    {.name = "READ(12)",
     .opcode = 0xA8,
     .cdb_length = 12,
     .direction = D::kIn,
     .usage = {kFF, 0x1C, kFF, kFF, kFF, kFF, kFF, kFF, kFF, kFF, 0x1F, 0},
     .lba = {2, 4},
     .length = {6, 4},
     .unit = U::kBlocks,
     .media = M::kRead,
     .timed = true,
     .handler = &Lun::read,
     .access = A::kRead},
    {.name = "WRITE(12)",
     .opcode = 0xAA,
     .cdb_length = 12,
     .direction = D::kOut,
     .usage = {kFF, 0x18, kFF, kFF, kFF, kFF, kFF, kFF, kFF, kFF, 0x1F, 0},
     .lba = {2, 4},
     .length = {6, 4},
     .unit = U::kBlocks,
     .media = M::kWrite,
     .timed = true,
     .handler = &Lun::write,
     .access = A::kWrite},
    {.name = "PRE-FETCH(10)",
     .opcode = 0x34,
     .cdb_length = 10,
     .direction = D::kNone,
     .usage = {kFF, 0x02, kFF, kFF, kFF, kFF, 0x1F, kFF, kFF, 0},
     .lba = {2, 4},
     .length = {7, 2},
     .unit = U::kBlocks,
     .media = M::kRead,
     .handler = &Lun::pre_fetch,
     .access = A::kRead},
    {.name = "PRE-FETCH(16)",
     .opcode = 0x90,
     .cdb_length = 16,
     .direction = D::kNone,
     .usage = {kFF, 0x02, kFF, kFF, kFF, kFF, kFF, kFF, kFF, kFF, kFF, kFF, kFF, kFF, 0x1F, 0},
     .lba = {2, 8},
     .length = {10, 4},
     .unit = U::kBlocks,
     .media = M::kRead,
     .handler = &Lun::pre_fetch,
     .access = A::kRead},
    {.name = "WRITE AND VERIFY(12)",
     .opcode = 0xAE,
     .cdb_length = 12,
     .direction = D::kOut,
     .usage = {kFF, 0x16, kFF, kFF, kFF, kFF, kFF, kFF, kFF, kFF, 0x1F, 0},
     .lba = {2, 4},
     .length = {6, 4},
     .unit = U::kBlocks,
     .media = M::kWrite,
     .timed = true,
     .handler = &Lun::write_and_verify,
     .access = A::kWrite},
    {.name = "VERIFY(12)",
     .opcode = 0xAF,
     .cdb_length = 12,
     .direction = D::kOut,
     .usage = {kFF, 0x16, kFF, kFF, kFF, kFF, kFF, kFF, kFF, kFF, 0x1F, 0},
     .lba = {2, 4},
     .length = {6, 4},
     .unit = U::kBytchkBlocks,
     .media = M::kRead,
     .timed = true,
     .handler = &Lun::verify,
     .access = A::kRead},
    {.name = "READ DEFECT DATA(10)",
     .opcode = 0x37,
     .cdb_length = 10,
     .direction = D::kIn,
     .usage = {kFF, 0, 0x1F, 0, 0, 0, 0, kFF, kFF, 0},
     .length = {7, 2},
     .unit = U::kAllocation,
     .handler = &Lun::read_defect_data,
     .access = A::kRead},
    {.name = "READ DEFECT DATA(12)",
     .opcode = 0xB7,
     .cdb_length = 12,
     .direction = D::kIn,
     .usage = {kFF, 0x1F, kFF, kFF, kFF, kFF, kFF, kFF, kFF, kFF, 0, 0},
     .length = {6, 4},
     .unit = U::kAllocation,
     .handler = &Lun::read_defect_data,
     .access = A::kRead},
};
#pragma GCC diagnostic pop

// SPC-4 §4.2.5.1: the CDB length of each group of operation codes (byte 0
// bits 7..5), with the reserved and vendor-specific groups sized as Linux
// sizes them.
constexpr std::array<std::uint8_t, 8> kGroupLength = {6, 10, 10, 12, 16, 12, 10, 10};

constexpr bool same(CdbField a, CdbField b) {
  return a.offset == b.offset && a.size == b.size && a.bits == b.bits;
}

constexpr bool fits(CdbField f, std::uint8_t cdb_length) {
  return f.size <= 8 && f.offset + f.size <= cdb_length && f.bits <= 8 * f.size;
}

constexpr bool in_blocks(LengthUnit u) {
  return u == LengthUnit::kBlocks || u == LengthUnit::kBlocksZeroIs256 ||
         u == LengthUnit::kPatternBlocks || u == LengthUnit::kBlockPairs ||
         u == LengthUnit::kBytchkBlocks;
}

// What the consumers of the table rely on, checked when it is compiled.
constexpr bool well_formed(const CommandSpec& c) {
  if (c.cdb_length != kGroupLength[c.opcode >> 5] || c.usage[0] != kFF) return false;
  for (std::size_t i = c.cdb_length; i < c.usage.size(); ++i) {
    if (c.usage[i] != 0) return false;
  }
  if (!fits(c.lba, c.cdb_length) || !fits(c.length, c.cdb_length)) return false;
  if ((c.unit == LengthUnit::kNone) != (c.length.size == 0)) return false;
  // Data-in is cut to an allocation length; data-out is bounded by a
  // transfer or parameter list length.
  if (c.unit == LengthUnit::kAllocation && c.direction != DataDirection::kIn) return false;
  if (c.unit == LengthUnit::kParameterList && c.direction != DataDirection::kOut) return false;
  if (c.direction == DataDirection::kOut && !in_blocks(c.unit) &&
      c.unit != LengthUnit::kParameterList) {
    return false;
  }
  // A medium access has blocks to match fault rules against.
  if (c.media != Media::kNone && (c.lba.size == 0 || !in_blocks(c.unit))) return false;
  return c.handler != nullptr;
}

constexpr bool same_layout(const CommandSpec& a, const CommandSpec& b) {
  return a.cdb_length == b.cdb_length && a.direction == b.direction && same(a.lba, b.lba) &&
         same(a.length, b.length) && a.unit == b.unit && a.media == b.media;
}

constexpr bool table_well_formed() {
  for (const CommandSpec& a : kCommands) {
    if (!well_formed(a)) return false;
    for (const CommandSpec& b : kCommands) {
      if (&a == &b || a.opcode != b.opcode) continue;
      // One layout per opcode, told apart by service action.
      if (!a.service_action || !b.service_action || *a.service_action == *b.service_action ||
          !same_layout(a, b)) {
        return false;
      }
    }
  }
  return true;
}
static_assert(table_well_formed(), "kCommands: see well_formed() for what each entry must hold");

}  // namespace

std::span<const CommandSpec> command_table() {
  return kCommands;
}

const CommandSpec* find_command(std::span<const std::uint8_t> cdb, bool& bad_sa) {
  bad_sa = false;
  if (cdb.empty()) return nullptr;
  bool opcode_known = false;
  for (const CommandSpec& c : kCommands) {
    if (c.opcode != cdb[0]) continue;
    opcode_known = true;
    if (!c.service_action) return &c;
    if (cdb.size() > 1 && (cdb[1] & 0x1F) == *c.service_action) return &c;
  }
  bad_sa = opcode_known;
  return nullptr;
}

const CommandSpec* find_layout(std::uint8_t opcode) {
  for (const CommandSpec& c : kCommands) {
    if (c.opcode == opcode) return &c;
  }
  return nullptr;
}

std::optional<BitPosition> reserved_bit_set(const CommandSpec& spec,
                                            std::span<const std::uint8_t> cdb) {
  for (std::size_t i = 1; i < spec.cdb_length && i < cdb.size(); ++i) {
    const std::uint8_t bad = cdb[i] & static_cast<std::uint8_t>(~spec.usage[i]);
    if (bad == 0) continue;
    std::int8_t bit = 7;
    while (((bad >> bit) & 1) == 0) --bit;
    return BitPosition{static_cast<std::uint16_t>(i), bit};
  }
  return std::nullopt;
}

std::uint64_t cdb_field(std::span<const std::uint8_t> cdb, CdbField f) {
  if (f.size == 0) return 0;
  const std::uint64_t v = modepages::get_be(cdb, f.offset, f.size);
  return f.bits == 0 || f.bits >= 64 ? v : v & ((std::uint64_t{1} << f.bits) - 1);
}

std::uint64_t cdb_blocks(const CommandSpec& spec, std::span<const std::uint8_t> cdb,
                         std::uint64_t capacity) {
  if (!in_blocks(spec.unit)) return 0;
  const std::uint64_t n = cdb_field(cdb, spec.length);
  if (n != 0) return n;
  if (spec.unit == LengthUnit::kBlocksZeroIs256) return 256;
  if (spec.unit == LengthUnit::kPatternBlocks) {
    const std::uint64_t lba = cdb_field(cdb, spec.lba);
    return lba < capacity ? capacity - lba : 0;
  }
  return 0;
}

void cut_to_allocation_length(const CommandSpec& spec, std::span<const std::uint8_t> cdb,
                              std::vector<std::uint8_t>& data_in) {
  if (spec.unit != LengthUnit::kAllocation) return;
  const std::uint64_t alloc = cdb_field(cdb, spec.length);
  if (data_in.size() > alloc) data_in.resize(static_cast<std::size_t>(alloc));
}

std::size_t cdb_length_of(const std::uint8_t* cdb) {
  if (cdb[0] == 0x7F) return 8u + cdb[7];
  if (const CommandSpec* c = find_layout(cdb[0])) return c->cdb_length;
  return kGroupLength[cdb[0] >> 5];
}

}  // namespace memstore::scsi
