// SPDX-License-Identifier: Apache-2.0
// Persistent reservations (PERSISTENT RESERVE IN/OUT), SPC-2 reservations
// (RESERVE/RELEASE), the unit attentions they raise, and what I_T nexus loss
// and LUN reset do to them — through CDBs on a G2 LUN, with exact status and
// sense.
#include <gmock/gmock.h>

#include <optional>
#include <ostream>
#include <string>

#include "modepages/bytes.h"
#include "target/scsi/transport_id.h"
#include "tests/scsi/lun_fixture.h"

namespace memstore::scsi {
namespace {

using ::testing::ElementsAre;
using ::testing::ElementsAreArray;
using ::testing::IsEmpty;
using testing::LunTest;

// Service actions and types (SPC-4 §6.15, §6.16).
constexpr std::uint8_t kReadKeys = 0, kReadReservation = 1, kReportCapabilities = 2,
                       kReadFullStatus = 3;
constexpr std::uint8_t kRegister = 0, kReserve = 1, kRelease = 2, kClear = 3, kPreempt = 4,
                       kPreemptAndAbort = 5, kRegisterAndIgnore = 6;
constexpr std::uint8_t kWE = 1, kEA = 3, kWERO = 5, kEARO = 6, kWEAR = 7, kEAAR = 8;

// Three I_T nexuses and their keys.
constexpr std::uint64_t kA = 1, kB = 2, kC = 3;
constexpr std::uint64_t kKeyA = 0xA1A2A3A4A5A6A7A8, kKeyB = 0xB0B1, kKeyC = 0xC0C1;

class ReservationTest : public LunTest {
 protected:
  // PERSISTENT RESERVE OUT with the 24-byte basic parameter list.
  ScsiResult prout(std::uint64_t nexus, std::uint8_t action, std::uint8_t type, std::uint64_t key,
                   std::uint64_t sa_key, std::uint8_t flags = 0, std::uint8_t length = 24) {
    std::vector<std::uint8_t> list(24, 0);
    modepages::put_be(list, 0, 8, key);
    modepages::put_be(list, 8, 8, sa_key);
    list[20] = flags;
    return run({0x5F, action, type, 0, 0, 0, 0, 0, length, 0}, list, nexus);
  }
  ScsiResult prin(std::uint64_t nexus, std::uint8_t action, std::uint16_t alloc = 0x1000) {
    return run({0x5E, action, 0, 0, 0, 0, 0, static_cast<std::uint8_t>(alloc >> 8),
                static_cast<std::uint8_t>(alloc & 0xFF), 0},
               {}, nexus);
  }
  ScsiResult register_key(std::uint64_t nexus, std::uint64_t key) {
    return prout(nexus, kRegisterAndIgnore, 0, 0, key);
  }
  std::vector<std::uint64_t> keys(std::uint64_t nexus = kA) {
    const ScsiResult r = prin(nexus, kReadKeys);
    EXPECT_EQ(r.status, Status::kGood);
    std::vector<std::uint64_t> out;
    if (r.data_in.size() < 8) return out;
    for (std::size_t at = 8; at + 8 <= r.data_in.size(); at += 8) {
      out.push_back(modepages::get_be64(r.data_in, at));
    }
    EXPECT_EQ(modepages::get_be32(r.data_in, 4), out.size() * 8);
    return out;
  }
  std::uint32_t generation(std::uint64_t nexus = kA) {
    const ScsiResult r = prin(nexus, kReadKeys);
    EXPECT_EQ(r.status, Status::kGood);
    return r.data_in.size() < 4 ? 0xFFFFFFFF : modepages::get_be32(r.data_in, 0);
  }
  struct Held {
    std::uint64_t key;
    int scope_type;
    bool operator==(const Held&) const = default;
  };
  std::optional<Held> reservation(std::uint64_t nexus = kA) {
    const ScsiResult r = prin(nexus, kReadReservation);
    EXPECT_EQ(r.status, Status::kGood);
    if (r.data_in.size() < 8 || modepages::get_be32(r.data_in, 4) == 0) return std::nullopt;
    EXPECT_EQ(r.data_in.size(), 24u);
    return Held{modepages::get_be64(r.data_in, 8), r.data_in[21]};
  }
  ScsiResult read1(std::uint64_t nexus) { return run({0x28, 0, 0, 0, 0, 1, 0, 0, 1}, {}, nexus); }
  ScsiResult write1(std::uint64_t nexus, std::uint8_t fill = 0x5A) {
    return run({0x2A, 0, 0, 0, 0, 1, 0, 0, 1}, std::vector<std::uint8_t>(512, fill), nexus);
  }
  ScsiResult tur(std::uint64_t nexus) { return run({0x00}, {}, nexus); }
  ScsiResult reserve6(std::uint64_t nexus) { return run({0x16}, {}, nexus); }
  ScsiResult release6(std::uint64_t nexus) { return run({0x17}, {}, nexus); }
};

// ---------------------------------------------------------------------------
// PERSISTENT RESERVE IN on a LUN nobody has touched

TEST_F(ReservationTest, FreshLunHasNoKeysAndNoReservation) {
  const ScsiResult k = prin(kA, kReadKeys);
  ASSERT_EQ(k.status, Status::kGood);
  EXPECT_THAT(k.data_in, ElementsAre(0, 0, 0, 0, 0, 0, 0, 0));
  const ScsiResult r = prin(kA, kReadReservation);
  EXPECT_THAT(r.data_in, ElementsAre(0, 0, 0, 0, 0, 0, 0, 0));
  const ScsiResult f = prin(kA, kReadFullStatus);
  EXPECT_THAT(f.data_in, ElementsAre(0, 0, 0, 0, 0, 0, 0, 0));
}

TEST_F(ReservationTest, ReportCapabilities) {
  const ScsiResult r = prin(kA, kReportCapabilities);
  ASSERT_EQ(r.status, Status::kGood);
  // LENGTH 8; CRH, ATP_C (no SIP_C, no PTPL_C); TMV, ALLOW COMMANDS 011b;
  // every type: WR_EX_AR, EX_AC_RO, WR_EX_RO, EX_AC, WR_EX | EX_AC_AR.
  EXPECT_THAT(r.data_in, ElementsAre(0x00, 0x08, 0x14, 0xB0, 0xEA, 0x01, 0x00, 0x00));
}

TEST_F(ReservationTest, ReadKeysKeepsItsLengthWhenTruncated) {
  ASSERT_EQ(register_key(kA, kKeyA).status, Status::kGood);
  ASSERT_EQ(register_key(kB, kKeyB).status, Status::kGood);
  const ScsiResult r = prin(kA, kReadKeys, 8);
  EXPECT_THAT(r.data_in, ElementsAre(0, 0, 0, 2, 0, 0, 0, 16));
}

// ---------------------------------------------------------------------------
// REGISTER and REGISTER AND IGNORE EXISTING KEY, and PRGENERATION

TEST_F(ReservationTest, RegisterReplaceUnregisterAndGeneration) {
  ASSERT_EQ(prout(kA, kRegister, 0, 0, kKeyA).status, Status::kGood);
  EXPECT_THAT(keys(), ElementsAre(kKeyA));
  EXPECT_EQ(generation(), 1u);
  // Registered: RESERVATION KEY must be the registered key.
  const ScsiResult again = prout(kA, kRegister, 0, 0, kKeyA + 1);
  EXPECT_EQ(again.status, Status::kReservationConflict);
  EXPECT_THAT(again.sense, IsEmpty());
  EXPECT_EQ(generation(), 1u) << "a conflict changes nothing";
  ASSERT_EQ(prout(kA, kRegister, 0, kKeyA, kKeyB).status, Status::kGood);
  EXPECT_THAT(keys(), ElementsAre(kKeyB));
  ASSERT_EQ(prout(kA, kRegisterAndIgnore, 0, 0x999, kKeyC).status, Status::kGood);
  EXPECT_THAT(keys(), ElementsAre(kKeyC));
  EXPECT_EQ(generation(), 3u);
  ASSERT_EQ(prout(kA, kRegister, 0, kKeyC, 0).status, Status::kGood);  // unregister
  EXPECT_THAT(keys(), IsEmpty());
  EXPECT_EQ(generation(), 4u);
  // Unregistered: a nonzero RESERVATION KEY conflicts; registering key 0 does nothing.
  EXPECT_EQ(prout(kA, kRegister, 0, kKeyC, kKeyA).status, Status::kReservationConflict);
  EXPECT_EQ(prout(kA, kRegister, 0, 0, 0).status, Status::kGood);
  EXPECT_THAT(keys(), IsEmpty());
  EXPECT_EQ(generation(), 4u);
}

TEST_F(ReservationTest, RegistrationsAreBounded) {
  for (std::uint64_t n = 1; n <= Reservations::kMaxRegistrations; ++n) {
    ASSERT_EQ(register_key(100 + n, n).status, Status::kGood) << n;
  }
  const ScsiResult full = register_key(99, 0x5555);
  ASSERT_EQ(full.status, Status::kCheckCondition);
  EXPECT_THAT(kcq(full), ElementsAre(5, 0x55, 0x04));
  // A registrant may still change or drop its key.
  EXPECT_EQ(prout(101, kRegister, 0, 1, 0x77).status, Status::kGood);
  EXPECT_EQ(prout(101, kRegister, 0, 0x77, 0).status, Status::kGood);
  EXPECT_EQ(register_key(99, 0x5555).status, Status::kGood);
}

TEST_F(ReservationTest, KeysAreListedInRegistrationOrder) {
  ASSERT_EQ(register_key(kB, kKeyB).status, Status::kGood);
  ASSERT_EQ(register_key(kA, kKeyA).status, Status::kGood);
  ASSERT_EQ(register_key(kC, kKeyB).status, Status::kGood);  // keys need not be unique
  EXPECT_THAT(keys(kC), ElementsAre(kKeyB, kKeyA, kKeyB));
}

TEST_F(ReservationTest, OnlyRegisteredNexusesWithTheirKeyMayReserve) {
  EXPECT_EQ(prout(kA, kReserve, kWE, kKeyA, 0).status, Status::kReservationConflict);
  ASSERT_EQ(register_key(kA, kKeyA).status, Status::kGood);
  EXPECT_EQ(prout(kA, kReserve, kWE, kKeyB, 0).status, Status::kReservationConflict);
  ASSERT_EQ(prout(kA, kReserve, kWE, kKeyA, 0).status, Status::kGood);
  EXPECT_EQ(reservation(), (Held{kKeyA, kWE}));
  // The holder again, same type: GOOD; another type: conflict.
  EXPECT_EQ(prout(kA, kReserve, kWE, kKeyA, 0).status, Status::kGood);
  EXPECT_EQ(prout(kA, kReserve, kEA, kKeyA, 0).status, Status::kReservationConflict);
  // Another registrant cannot take it.
  ASSERT_EQ(register_key(kB, kKeyB).status, Status::kGood);
  EXPECT_EQ(prout(kB, kReserve, kWE, kKeyB, 0).status, Status::kReservationConflict);
  // RESERVE and RELEASE leave PRGENERATION alone (SPC-4 §6.15.2).
  EXPECT_EQ(generation(), 2u);
  ASSERT_EQ(prout(kA, kRelease, kWE, kKeyA, 0).status, Status::kGood);
  EXPECT_EQ(generation(), 2u);
  EXPECT_EQ(reservation(), std::nullopt);
}

TEST_F(ReservationTest, ReleaseRules) {
  ASSERT_EQ(register_key(kA, kKeyA).status, Status::kGood);
  ASSERT_EQ(register_key(kB, kKeyB).status, Status::kGood);
  EXPECT_EQ(prout(kA, kRelease, kWE, kKeyA, 0).status, Status::kGood) << "nothing to release";
  ASSERT_EQ(prout(kA, kReserve, kEA, kKeyA, 0).status, Status::kGood);
  // A registrant that does not hold it: GOOD, nothing happens.
  EXPECT_EQ(prout(kB, kRelease, kEA, kKeyB, 0).status, Status::kGood);
  EXPECT_EQ(reservation(), (Held{kKeyA, kEA}));
  // Not registered, or the wrong key: conflict.
  EXPECT_EQ(prout(kC, kRelease, kEA, 0, 0).status, Status::kReservationConflict);
  EXPECT_EQ(prout(kA, kRelease, kEA, kKeyB, 0).status, Status::kReservationConflict);
  // The holder naming another type: INVALID RELEASE OF PERSISTENT RESERVATION.
  const ScsiResult wrong = prout(kA, kRelease, kWE, kKeyA, 0);
  ASSERT_EQ(wrong.status, Status::kCheckCondition);
  EXPECT_THAT(kcq(wrong), ElementsAre(5, 0x26, 0x04));
  EXPECT_THAT(field(wrong), IsEmpty());
  EXPECT_EQ(reservation(), (Held{kKeyA, kEA}));
  ASSERT_EQ(prout(kA, kRelease, kEA, kKeyA, 0).status, Status::kGood);
  EXPECT_EQ(reservation(), std::nullopt);
  // Releasing an Exclusive Access reservation tells nobody.
  EXPECT_EQ(tur(kB).status, Status::kGood);
}

// ---------------------------------------------------------------------------
// What each type lets through (SPC-4 and SBC-3 reservation tables)

struct AccessRow {
  const char* name;
  std::uint8_t type;
  bool registered_read, registered_write, other_read, other_write;
  bool other_mode_sense;  // MODE SENSE passes Write Exclusive types only
};

void PrintTo(const AccessRow& r, std::ostream* os) {
  *os << r.name;
}

class AccessRules : public ReservationTest, public ::testing::WithParamInterface<AccessRow> {};

TEST_P(AccessRules, ForHolderRegistrantAndOthers) {
  const AccessRow& row = GetParam();
  ASSERT_EQ(register_key(kA, kKeyA).status, Status::kGood);
  ASSERT_EQ(register_key(kB, kKeyB).status, Status::kGood);
  ASSERT_EQ(prout(kA, kReserve, row.type, kKeyA, 0).status, Status::kGood);
  const bool all_registrants = row.type == kWEAR || row.type == kEAAR;
  EXPECT_EQ(reservation(), (Held{all_registrants ? 0 : kKeyA, row.type}));
  auto expect = [](bool allowed) { return allowed ? Status::kGood : Status::kReservationConflict; };
  // The holder does everything.
  EXPECT_EQ(read1(kA).status, Status::kGood);
  EXPECT_EQ(write1(kA).status, Status::kGood);
  EXPECT_EQ(run({0x1A, 0, 0x3F, 0, 0xFF}, {}, kA).status, Status::kGood);
  // A registrant.
  EXPECT_EQ(read1(kB).status, expect(row.registered_read));
  EXPECT_EQ(write1(kB).status, expect(row.registered_write));
  // Someone not registered.
  EXPECT_EQ(read1(kC).status, expect(row.other_read));
  EXPECT_EQ(write1(kC).status, expect(row.other_write));
  EXPECT_EQ(run({0x1A, 0, 0x3F, 0, 0xFF}, {}, kC).status, expect(row.other_mode_sense));
  EXPECT_EQ(run({0x35, 0, 0, 0, 0, 0, 0, 0, 0, 0}, {}, kC).status, expect(row.other_write))
      << "SYNCHRONIZE CACHE is a write";
  // Never blocked by a persistent reservation.
  EXPECT_EQ(tur(kC).status, Status::kGood);
  EXPECT_EQ(run({0x12, 0, 0, 0, 96}, {}, kC).status, Status::kGood);
  EXPECT_EQ(run({0x25}, {}, kC).status, Status::kGood);
  EXPECT_EQ(run({0xA0, 0, 0, 0, 0, 0, 0, 0, 0, 0x10, 0, 0}, {}, kC).status, Status::kGood);
  EXPECT_EQ(prin(kC, kReadKeys).status, Status::kGood);
  EXPECT_EQ(run({0x1E, 0, 0, 0, 0}, {}, kC).status, Status::kGood) << "PREVENT = 0";
  EXPECT_EQ(run({0x1E, 0, 0, 0, 1}, {}, kC).status, expect(row.other_write)) << "PREVENT = 1";
  EXPECT_EQ(run({0x1B, 0, 0, 0, 0x01}, {}, kC).status, Status::kGood) << "START";
  EXPECT_EQ(run({0x1B, 0, 0, 0, 0x00}, {}, kC).status, expect(row.other_write)) << "STOP";
}

// The expectations of libiscsi's ProutReserve.Access* tests, which follow
// SPC-4's table.
const AccessRow kAccessRows[] = {
    {"WriteExclusive", kWE, true, false, true, false, true},
    {"ExclusiveAccess", kEA, false, false, false, false, false},
    {"WriteExclusiveRegistrantsOnly", kWERO, true, true, true, false, true},
    {"ExclusiveAccessRegistrantsOnly", kEARO, true, true, false, false, false},
    {"WriteExclusiveAllRegistrants", kWEAR, true, true, true, false, true},
    {"ExclusiveAccessAllRegistrants", kEAAR, true, true, false, false, false},
};

INSTANTIATE_TEST_SUITE_P(Types, AccessRules, ::testing::ValuesIn(kAccessRows),
                         [](const ::testing::TestParamInfo<AccessRow>& i) {
                           return std::string(i.param.name);
                         });

TEST_F(ReservationTest, AConflictedWriteChangesNothing) {
  ASSERT_EQ(write1(kA, 0x11).status, Status::kGood);
  ASSERT_EQ(register_key(kA, kKeyA).status, Status::kGood);
  ASSERT_EQ(prout(kA, kReserve, kWE, kKeyA, 0).status, Status::kGood);
  const ScsiResult w = write1(kC, 0x22);
  EXPECT_EQ(w.status, Status::kReservationConflict);
  EXPECT_THAT(w.sense, IsEmpty());
  EXPECT_EQ(w.complete_ns, now) << "not timed by the model";
  EXPECT_EQ(read1(kA).data_in, std::vector<std::uint8_t>(512, 0x11));
}

TEST_F(ReservationTest, ReservationIsCheckedBeforeTheCdbFields) {
  ASSERT_EQ(register_key(kA, kKeyA).status, Status::kGood);
  ASSERT_EQ(prout(kA, kReserve, kEA, kKeyA, 0).status, Status::kGood);
  // A READ(10) with a reserved bit set, from someone the reservation blocks.
  EXPECT_EQ(run({0x28, 0x20, 0, 0, 0, 1, 0, 0, 1}, {}, kC).status, Status::kReservationConflict);
}

// ---------------------------------------------------------------------------
// Unregistering the holder (SPC-4: "Unregistering")

TEST_F(ReservationTest, UnregisteringTheHolderReleasesAndTellsRegistrantsOnlyPeers) {
  ASSERT_EQ(register_key(kA, kKeyA).status, Status::kGood);
  ASSERT_EQ(register_key(kB, kKeyB).status, Status::kGood);
  ASSERT_EQ(prout(kA, kReserve, kEA, kKeyA, 0).status, Status::kGood);
  ASSERT_EQ(prout(kA, kRegister, 0, kKeyA, 0).status, Status::kGood);
  EXPECT_EQ(reservation(), std::nullopt);
  EXPECT_EQ(tur(kB).status, Status::kGood) << "Exclusive Access: no unit attention";

  ASSERT_EQ(register_key(kA, kKeyA).status, Status::kGood);
  ASSERT_EQ(prout(kA, kReserve, kEARO, kKeyA, 0).status, Status::kGood);
  ASSERT_EQ(prout(kA, kRegister, 0, kKeyA, 0).status, Status::kGood);
  EXPECT_EQ(reservation(kA), std::nullopt);
  // B's next command, whatever it is, reports the unit attention.
  const ScsiResult ua = prin(kB, kReadReservation);
  ASSERT_EQ(ua.status, Status::kCheckCondition);
  EXPECT_THAT(kcq(ua), ElementsAre(6, 0x2A, 0x04));  // RESERVATIONS RELEASED
  EXPECT_EQ(tur(kB).status, Status::kGood) << "reported once";
  EXPECT_EQ(tur(kA).status, Status::kGood) << "not to the one that unregistered";
}

TEST_F(ReservationTest, AllRegistrantsReservationLastsUntilTheLastRegistrantGoes) {
  ASSERT_EQ(register_key(kA, kKeyA).status, Status::kGood);
  ASSERT_EQ(register_key(kB, kKeyB).status, Status::kGood);
  ASSERT_EQ(prout(kA, kReserve, kEAAR, kKeyA, 0).status, Status::kGood);
  ASSERT_EQ(prout(kA, kRegister, 0, kKeyA, 0).status, Status::kGood);
  EXPECT_EQ(reservation(), (Held{0, kEAAR}));
  EXPECT_EQ(read1(kA).status, Status::kReservationConflict) << "A is no longer a registrant";
  EXPECT_EQ(read1(kB).status, Status::kGood);
  // B holds it too, and may release it.
  ASSERT_EQ(prout(kB, kRelease, kEAAR, kKeyB, 0).status, Status::kGood);
  EXPECT_EQ(reservation(), std::nullopt);
  ASSERT_EQ(prout(kB, kReserve, kWEAR, kKeyB, 0).status, Status::kGood);
  ASSERT_EQ(prout(kB, kRegister, 0, kKeyB, 0).status, Status::kGood);
  EXPECT_EQ(reservation(), std::nullopt) << "the last registrant took it along";
}

TEST_F(ReservationTest, ReleasingARegistrantsTypeTellsTheOtherRegistrants) {
  ASSERT_EQ(register_key(kA, kKeyA).status, Status::kGood);
  ASSERT_EQ(register_key(kB, kKeyB).status, Status::kGood);
  ASSERT_EQ(prout(kA, kReserve, kWERO, kKeyA, 0).status, Status::kGood);
  ASSERT_EQ(prout(kA, kRelease, kWERO, kKeyA, 0).status, Status::kGood);
  EXPECT_EQ(tur(kA).status, Status::kGood);
  EXPECT_THAT(kcq(tur(kB)), ElementsAre(6, 0x2A, 0x04));
  EXPECT_EQ(tur(kC).status, Status::kGood) << "not registered: not told";
}

// ---------------------------------------------------------------------------
// CLEAR

TEST_F(ReservationTest, ClearRemovesEverythingAndTellsTheOthers) {
  ASSERT_EQ(register_key(kA, kKeyA).status, Status::kGood);
  ASSERT_EQ(register_key(kB, kKeyB).status, Status::kGood);
  ASSERT_EQ(prout(kA, kReserve, kEA, kKeyA, 0).status, Status::kGood);
  const std::uint32_t before = generation();
  EXPECT_EQ(prout(kC, kClear, 0, 0, 0).status, Status::kReservationConflict);
  EXPECT_EQ(prout(kA, kClear, 0, kKeyB, 0).status, Status::kReservationConflict);
  ASSERT_EQ(prout(kA, kClear, 0, kKeyA, 0).status, Status::kGood);
  EXPECT_THAT(keys(), IsEmpty());
  EXPECT_EQ(reservation(), std::nullopt);
  EXPECT_EQ(generation(), before + 1);
  EXPECT_EQ(tur(kA).status, Status::kGood);
  EXPECT_THAT(kcq(tur(kB)), ElementsAre(6, 0x2A, 0x03));  // RESERVATIONS PREEMPTED
  EXPECT_EQ(tur(kB).status, Status::kGood);
}

// ---------------------------------------------------------------------------
// PREEMPT and PREEMPT AND ABORT

TEST_F(ReservationTest, PreemptWithoutAReservationRemovesRegistrations) {
  // libiscsi's ProutPreempt.RemoveRegistration.
  ASSERT_EQ(register_key(kA, kKeyA).status, Status::kGood);
  ASSERT_EQ(register_key(kB, kKeyB).status, Status::kGood);
  ASSERT_EQ(register_key(kC, kKeyA).status, Status::kGood);
  const std::uint32_t before = generation();
  // SERVICE ACTION RESERVATION KEY 0 without an All Registrants reservation.
  const ScsiResult zero = prout(kB, kPreempt, kEA, kKeyB, 0);
  ASSERT_EQ(zero.status, Status::kCheckCondition);
  EXPECT_THAT(kcq(zero), ElementsAre(5, 0x26, 0));
  EXPECT_THAT(field(zero), ElementsAre(0, -1, 8));
  // A key nobody has: conflict.
  EXPECT_EQ(prout(kB, kPreempt, kEA, kKeyB, 0x777).status, Status::kReservationConflict);
  EXPECT_EQ(generation(), before);
  ASSERT_EQ(prout(kB, kPreempt, kEA, kKeyB, kKeyA).status, Status::kGood);
  EXPECT_THAT(keys(kB), ElementsAre(kKeyB));
  EXPECT_EQ(generation(kB), before + 1);
  EXPECT_EQ(reservation(kB), std::nullopt) << "no reservation is created";
  EXPECT_THAT(kcq(tur(kA)), ElementsAre(6, 0x2A, 0x05));  // REGISTRATIONS PREEMPTED
  EXPECT_THAT(kcq(tur(kC)), ElementsAre(6, 0x2A, 0x05));
  EXPECT_EQ(tur(kB).status, Status::kGood);
}

TEST_F(ReservationTest, PreemptingTheHolderTakesTheReservation) {
  ASSERT_EQ(register_key(kA, kKeyA).status, Status::kGood);
  ASSERT_EQ(register_key(kB, kKeyB).status, Status::kGood);
  ASSERT_EQ(register_key(kC, kKeyC).status, Status::kGood);
  ASSERT_EQ(prout(kA, kReserve, kWE, kKeyA, 0).status, Status::kGood);
  ASSERT_EQ(prout(kB, kPreempt, kEA, kKeyB, kKeyA).status, Status::kGood);
  EXPECT_EQ(reservation(kB), (Held{kKeyB, kEA}));
  EXPECT_THAT(keys(kB), ElementsAre(kKeyB, kKeyC));
  EXPECT_THAT(kcq(tur(kA)), ElementsAre(6, 0x2A, 0x05));  // lost its registration
  // The type changed: the remaining registrant hears the old one is gone.
  EXPECT_THAT(kcq(tur(kC)), ElementsAre(6, 0x2A, 0x04));
  EXPECT_EQ(read1(kA).status, Status::kReservationConflict);
  EXPECT_EQ(write1(kB).status, Status::kGood);
}

TEST_F(ReservationTest, PreemptingAnotherKeyLeavesTheReservation) {
  ASSERT_EQ(register_key(kA, kKeyA).status, Status::kGood);
  ASSERT_EQ(register_key(kB, kKeyB).status, Status::kGood);
  ASSERT_EQ(register_key(kC, kKeyC).status, Status::kGood);
  ASSERT_EQ(prout(kA, kReserve, kWE, kKeyA, 0).status, Status::kGood);
  ASSERT_EQ(prout(kB, kPreemptAndAbort, kWE, kKeyB, kKeyC).status, Status::kGood);
  EXPECT_EQ(reservation(), (Held{kKeyA, kWE}));
  EXPECT_THAT(keys(), ElementsAre(kKeyA, kKeyB));
  EXPECT_THAT(kcq(tur(kC)), ElementsAre(6, 0x2A, 0x05));
  EXPECT_EQ(tur(kA).status, Status::kGood);
}

TEST_F(ReservationTest, PreemptWithKeyZeroUnderAllRegistrants) {
  ASSERT_EQ(register_key(kA, kKeyA).status, Status::kGood);
  ASSERT_EQ(register_key(kB, kKeyB).status, Status::kGood);
  ASSERT_EQ(register_key(kC, kKeyC).status, Status::kGood);
  ASSERT_EQ(prout(kA, kReserve, kWEAR, kKeyA, 0).status, Status::kGood);
  ASSERT_EQ(prout(kB, kPreempt, kWE, kKeyB, 0).status, Status::kGood);
  EXPECT_THAT(keys(kB), ElementsAre(kKeyB));
  EXPECT_EQ(reservation(kB), (Held{kKeyB, kWE}));
  EXPECT_THAT(kcq(tur(kA)), ElementsAre(6, 0x2A, 0x05));
  EXPECT_THAT(kcq(tur(kC)), ElementsAre(6, 0x2A, 0x05));
}

// ---------------------------------------------------------------------------
// CDB and parameter list checks

TEST_F(ReservationTest, ParameterListChecks) {
  // PARAMETER LIST LENGTH other than 24.
  EXPECT_THAT(kcq(prout(kA, kRegister, 0, 0, kKeyA, 0, 0)), ElementsAre(5, 0x1A, 0));
  EXPECT_THAT(kcq(prout(kA, kRegister, 0, 0, kKeyA, 0, 23)), ElementsAre(5, 0x1A, 0));
  // SPEC_I_PT: not offered.
  const ScsiResult sip = prout(kA, kRegister, 0, 0, kKeyA, 0x08);
  EXPECT_THAT(kcq(sip), ElementsAre(5, 0x26, 0));
  EXPECT_THAT(field(sip), ElementsAre(0, 3, 20));
  // APTPL: no persistence through power loss.
  const ScsiResult aptpl = prout(kA, kRegisterAndIgnore, 0, 0, kKeyA, 0x01);
  EXPECT_THAT(kcq(aptpl), ElementsAre(5, 0x26, 0));
  EXPECT_THAT(field(aptpl), ElementsAre(0, 0, 20));
  // A reserved bit of byte 20.
  EXPECT_THAT(field(prout(kA, kRegister, 0, 0, kKeyA, 0x02)), ElementsAre(0, -1, 20));
  EXPECT_THAT(keys(), IsEmpty());
  // ALL_TG_PT: one target port, so it is the same registration.
  ASSERT_EQ(prout(kA, kRegister, 0, 0, kKeyA, 0x04).status, Status::kGood);
  // APTPL means nothing to RESERVE (SPC-4 §6.16.3).
  EXPECT_EQ(prout(kA, kReserve, kWE, kKeyA, 0, 0x01).status, Status::kGood);
}

TEST_F(ReservationTest, CdbChecks) {
  ASSERT_EQ(register_key(kA, kKeyA).status, Status::kGood);
  const ScsiResult type = prout(kA, kReserve, 0x02, kKeyA, 0);
  EXPECT_THAT(kcq(type), ElementsAre(5, 0x24, 0));
  EXPECT_THAT(field(type), ElementsAre(1, 3, 2));
  const ScsiResult scope = prout(kA, kReserve, 0x10 | kWE, kKeyA, 0);
  EXPECT_THAT(field(scope), ElementsAre(1, 7, 2));
  // REGISTER ignores SCOPE and TYPE.
  EXPECT_EQ(prout(kA, kRegister, 0xFF, kKeyA, kKeyB).status, Status::kGood);
  // REGISTER AND MOVE is not offered; neither are PERSISTENT RESERVE IN 04h+.
  const ScsiResult move = prout(kA, 0x07, kWE, kKeyB, 0);
  EXPECT_THAT(kcq(move), ElementsAre(5, 0x24, 0));
  EXPECT_THAT(field(move), ElementsAre(1, 4, 1));
  EXPECT_THAT(field(prin(kA, 0x04)), ElementsAre(1, 4, 1));
  EXPECT_THAT(field(run({0x5E, 0, 1, 0, 0, 0, 0, 0, 8, 0})), ElementsAre(1, 0, 2));
}

// ---------------------------------------------------------------------------
// READ FULL STATUS, TransportIDs and initiator ports

TEST(TransportId, IscsiFormats) {
  // Format 01b (initiator port), name + ",i,0x" + ISID, null-terminated,
  // ADDITIONAL LENGTH a multiple of 4 and at least 20.
  const std::string port = "iqn.2026-01.org.example:a,i,0x00023d000001";  // 42 characters
  const Bytes id = iscsi_transport_id(port);
  ASSERT_EQ(id.size(), 4u + 44u);
  EXPECT_THAT(std::vector<std::uint8_t>(id.begin(), id.begin() + 4), ElementsAre(0x45, 0, 0, 44));
  EXPECT_EQ(std::string(id.begin() + 4, id.begin() + 46), port);
  EXPECT_THAT(std::vector<std::uint8_t>(id.begin() + 46, id.end()), ElementsAre(0, 0));
  // Format 00b for a bare name; the empty name is 20 zero bytes.
  EXPECT_EQ(iscsi_transport_id("iqn.x")[0], 0x05);
  const Bytes empty = iscsi_transport_id("");
  EXPECT_EQ(empty.size(), 24u);
  EXPECT_EQ(empty[0], 0x05);
  EXPECT_EQ(empty[3], 20);
}

TEST_F(ReservationTest, ReadFullStatusNamesEachRegistrant) {
  const std::string port_a = "iqn.2026-01.org.example:a,i,0x00023d000001";
  lun->describe_nexus(kA, port_a);
  ASSERT_EQ(prout(kA, kRegister, 0, 0, kKeyA, 0x04).status, Status::kGood);  // ALL_TG_PT
  ASSERT_EQ(register_key(kB, kKeyB).status, Status::kGood);                  // never described
  ASSERT_EQ(prout(kA, kReserve, kEA, kKeyA, 0).status, Status::kGood);
  const ScsiResult r = prin(kA, kReadFullStatus);
  ASSERT_EQ(r.status, Status::kGood);
  const Bytes id_a = iscsi_transport_id(port_a);
  const Bytes id_b = iscsi_transport_id("");
  const std::size_t len_a = 24 + id_a.size(), len_b = 24 + id_b.size();
  ASSERT_EQ(r.data_in.size(), 8 + len_a + len_b);
  EXPECT_EQ(modepages::get_be32(r.data_in, 0), generation());
  EXPECT_EQ(modepages::get_be32(r.data_in, 4), len_a + len_b);
  const std::uint8_t* a = r.data_in.data() + 8;
  EXPECT_EQ(modepages::get_be64(r.data_in, 8), kKeyA);
  EXPECT_EQ(a[12], 0x03);              // ALL_TG_PT, R_HOLDER
  EXPECT_EQ(a[13], kEA);               // LU_SCOPE, type
  EXPECT_EQ((a[18] << 8) | a[19], 1);  // relative target port
  EXPECT_EQ(modepages::get_be32(r.data_in, 8 + 20), id_a.size());
  EXPECT_EQ(Bytes(a + 24, a + 24 + id_a.size()), id_a);
  const std::uint8_t* b = a + len_a;
  EXPECT_EQ(modepages::get_be64(r.data_in, 8 + len_a), kKeyB);
  EXPECT_EQ(b[12], 0x00);
  EXPECT_EQ(b[13], 0x00);
  EXPECT_EQ(Bytes(b + 24, b + 24 + id_b.size()), id_b);
}

TEST_F(ReservationTest, ADescribedPortFindsItsRegistrationOnANewNexus) {
  const std::string port = "iqn.2026-01.org.example:a,i,0x00023d000001";
  lun->describe_nexus(kA, port);
  ASSERT_EQ(register_key(kA, kKeyA).status, Status::kGood);
  ASSERT_EQ(prout(kA, kReserve, kEA, kKeyA, 0).status, Status::kGood);
  lun->nexus_lost(kA);
  EXPECT_THAT(keys(kB), ElementsAre(kKeyA)) << "registrations survive I_T nexus loss";
  EXPECT_EQ(reservation(kB), (Held{kKeyA, kEA}));
  constexpr std::uint64_t kA2 = 42;
  lun->describe_nexus(kA2, port);
  EXPECT_EQ(write1(kA2).status, Status::kGood) << "the same initiator port holds it";
  EXPECT_EQ(write1(kB).status, Status::kReservationConflict);
  EXPECT_EQ(prout(kA2, kRelease, kEA, kKeyA, 0).status, Status::kGood);
  EXPECT_EQ(prout(kA2, kRegister, 0, kKeyA, 0).status, Status::kGood);
  EXPECT_THAT(keys(), IsEmpty());
}

TEST_F(ReservationTest, AnUndescribedNexusIsItsOwnInitiatorPort) {
  ASSERT_EQ(register_key(kA, kKeyA).status, Status::kGood);
  lun->nexus_lost(kA);
  EXPECT_THAT(keys(kB), ElementsAre(kKeyA));
  // Another nexus is another initiator port, unregistered.
  EXPECT_EQ(prout(kB, kRegister, 0, kKeyA, 0).status, Status::kReservationConflict);
}

TEST_F(ReservationTest, UnitAttentionsWaitForTheDescribedPortsNextNexus) {
  const std::string port = "iqn.2026-01.org.example:b,i,0x00023d000002";
  lun->describe_nexus(kB, port);
  ASSERT_EQ(register_key(kA, kKeyA).status, Status::kGood);
  ASSERT_EQ(register_key(kB, kKeyB).status, Status::kGood);
  lun->nexus_lost(kB);
  ASSERT_EQ(prout(kA, kClear, 0, kKeyA, 0).status, Status::kGood);
  constexpr std::uint64_t kB2 = 77;
  lun->describe_nexus(kB2, port);
  EXPECT_THAT(kcq(tur(kB2)), ElementsAre(6, 0x2A, 0x03));
}

// ---------------------------------------------------------------------------
// Unit attention rules (SAM-5 §5.14)

TEST_F(ReservationTest, UnitAttentionPassesInquiryReportLunsAndRequestSense) {
  ASSERT_EQ(register_key(kA, kKeyA).status, Status::kGood);
  ASSERT_EQ(register_key(kB, kKeyB).status, Status::kGood);
  ASSERT_EQ(prout(kA, kClear, 0, kKeyA, 0).status, Status::kGood);
  EXPECT_EQ(run({0x12, 0, 0, 0, 96}, {}, kB).status, Status::kGood);
  EXPECT_EQ(run({0xA0, 0, 0, 0, 0, 0, 0, 0, 0, 0x10, 0, 0}, {}, kB).status, Status::kGood);
  // REQUEST SENSE returns it as data and clears it.
  const ScsiResult rs = run({0x03, 0, 0, 0, 18}, {}, kB);
  ASSERT_EQ(rs.status, Status::kGood);
  ASSERT_EQ(rs.data_in.size(), 18u);
  EXPECT_EQ(rs.data_in[2], 0x06);
  EXPECT_EQ(rs.data_in[12], 0x2A);
  EXPECT_EQ(rs.data_in[13], 0x03);
  EXPECT_EQ(tur(kB).status, Status::kGood);
  EXPECT_EQ(run({0x03, 0, 0, 0, 18}, {}, kB).data_in[2], 0x00) << "NO SENSE now";
}

TEST_F(ReservationTest, UnitAttentionComesBeforeAnUnknownOpcode) {
  ASSERT_EQ(register_key(kA, kKeyA).status, Status::kGood);
  ASSERT_EQ(register_key(kB, kKeyB).status, Status::kGood);
  ASSERT_EQ(prout(kA, kClear, 0, kKeyA, 0).status, Status::kGood);
  EXPECT_THAT(kcq(run({0xC0}, {}, kB)), ElementsAre(6, 0x2A, 0x03));
  EXPECT_THAT(kcq(run({0xC0}, {}, kB)), ElementsAre(5, 0x20, 0));
}

TEST_F(ReservationTest, UnitAttentionsQueueInOrder) {
  ASSERT_EQ(register_key(kA, kKeyA).status, Status::kGood);
  ASSERT_EQ(register_key(kB, kKeyB).status, Status::kGood);
  ASSERT_EQ(prout(kA, kReserve, kWERO, kKeyA, 0).status, Status::kGood);
  ASSERT_EQ(prout(kA, kRelease, kWERO, kKeyA, 0).status, Status::kGood);  // B: 2A/04
  lun->lun_reset();                                                       // B: 29/03
  ASSERT_EQ(prout(kA, kClear, 0, kKeyA, 0).status, Status::kCheckCondition)
      << "A has the reset's unit attention first";
  ASSERT_EQ(prout(kA, kClear, 0, kKeyA, 0).status, Status::kGood);  // B: 2A/03
  EXPECT_THAT(kcq(tur(kB)), ElementsAre(6, 0x2A, 0x04));
  EXPECT_THAT(kcq(tur(kB)), ElementsAre(6, 0x29, 0x03));
  EXPECT_THAT(kcq(tur(kB)), ElementsAre(6, 0x2A, 0x03));
  EXPECT_EQ(tur(kB).status, Status::kGood);
}

// ---------------------------------------------------------------------------
// RESERVE(6/10) and RELEASE(6/10)

TEST_F(ReservationTest, Reserve6AgainstAnotherNexus) {
  // libiscsi's Reserve6.2Initiators, and the rest of SPC-2's list.
  ASSERT_EQ(reserve6(kA).status, Status::kGood);
  EXPECT_EQ(reserve6(kA).status, Status::kGood) << "the holder again";
  const ScsiResult conflict = reserve6(kB);
  EXPECT_EQ(conflict.status, Status::kReservationConflict);
  EXPECT_THAT(conflict.sense, IsEmpty());
  EXPECT_EQ(release6(kB).status, Status::kGood) << "not B's: nothing happens";
  EXPECT_EQ(run({0x1A, 0, 0x3F, 0, 0xFF}, {}, kA).status, Status::kGood);
  EXPECT_EQ(run({0x1A, 0, 0x3F, 0, 0xFF}, {}, kB).status, Status::kReservationConflict);
  EXPECT_EQ(tur(kB).status, Status::kReservationConflict);
  EXPECT_EQ(read1(kB).status, Status::kReservationConflict);
  EXPECT_EQ(prin(kB, kReadKeys).status, Status::kReservationConflict);
  EXPECT_EQ(register_key(kB, kKeyB).status, Status::kReservationConflict);
  EXPECT_EQ(run({0x1E, 0, 0, 0, 1}, {}, kB).status, Status::kReservationConflict);
  // Allowed through an SPC-2 reservation.
  EXPECT_EQ(run({0x12, 0, 0, 0, 96}, {}, kB).status, Status::kGood);
  EXPECT_EQ(run({0xA0, 0, 0, 0, 0, 0, 0, 0, 0, 0x10, 0, 0}, {}, kB).status, Status::kGood);
  EXPECT_EQ(run({0x03, 0, 0, 0, 18}, {}, kB).status, Status::kGood);
  EXPECT_EQ(run({0x25}, {}, kB).status, Status::kGood);
  EXPECT_EQ(run({0x4D, 0, 0x00, 0, 0, 0, 0, 0x01, 0}, {}, kB).status, Status::kGood);
  EXPECT_EQ(run({0x1E, 0, 0, 0, 0}, {}, kB).status, Status::kGood);
  EXPECT_EQ(reserve6(kB).status, Status::kReservationConflict) << "still A's";
  ASSERT_EQ(release6(kA).status, Status::kGood);
  EXPECT_EQ(reserve6(kB).status, Status::kGood);
  EXPECT_EQ(read1(kA).status, Status::kReservationConflict);
  EXPECT_EQ(release6(kB).status, Status::kGood);
  EXPECT_EQ(read1(kA).status, Status::kGood);
}

TEST_F(ReservationTest, Reserve10IsTheSameReservation) {
  ASSERT_EQ(run({0x56, 0, 0, 0, 0, 0, 0, 0, 0, 0}, {}, kA).status, Status::kGood);
  EXPECT_EQ(reserve6(kB).status, Status::kReservationConflict);
  ASSERT_EQ(run({0x57, 0, 0, 0, 0, 0, 0, 0, 0, 0}, {}, kA).status, Status::kGood);
  EXPECT_EQ(reserve6(kB).status, Status::kGood);
  // Third-party reservations are not offered.
  const ScsiResult third = run({0x56, 0x10, 0, 5, 0, 0, 0, 0, 0, 0}, {}, kB);
  EXPECT_THAT(kcq(third), ElementsAre(5, 0x24, 0));
  EXPECT_THAT(field(third), ElementsAre(1, 4, 1));
}

TEST_F(ReservationTest, NexusLossAndLunResetReleaseReserve6) {
  ASSERT_EQ(reserve6(kA).status, Status::kGood);
  lun->nexus_lost(kA);
  ASSERT_EQ(reserve6(kB).status, Status::kGood) << "libiscsi's Reserve6.ITNexusLoss";
  EXPECT_EQ(tur(kC).status, Status::kReservationConflict);
  lun->lun_reset();
  // Every nexus the LUN knows hears about the reset, once.
  EXPECT_THAT(kcq(tur(kC)), ElementsAre(6, 0x29, 0x03));
  EXPECT_EQ(tur(kC).status, Status::kGood) << "the reservation is gone";
  EXPECT_THAT(kcq(tur(kB)), ElementsAre(6, 0x29, 0x03));
  EXPECT_EQ(reserve6(kC).status, Status::kGood) << "libiscsi's Reserve6.LUNReset";
  EXPECT_EQ(tur(kA).status, Status::kReservationConflict) << "A was lost: no unit attention";
}

TEST_F(ReservationTest, LunResetKeepsPersistentReservations) {
  ASSERT_EQ(register_key(kA, kKeyA).status, Status::kGood);
  ASSERT_EQ(prout(kA, kReserve, kEA, kKeyA, 0).status, Status::kGood);
  lun->lun_reset();
  EXPECT_THAT(kcq(tur(kA)), ElementsAre(6, 0x29, 0x03));
  EXPECT_EQ(reservation(), (Held{kKeyA, kEA}));
  EXPECT_EQ(read1(kB).status, Status::kReservationConflict);
}

TEST_F(ReservationTest, RegistrationsMakeReserve6Conflict) {
  ASSERT_EQ(register_key(kA, kKeyA).status, Status::kGood);
  // SPC-2: with registrations, RESERVE and RELEASE conflict for everyone...
  EXPECT_EQ(reserve6(kB).status, Status::kReservationConflict);
  EXPECT_EQ(reserve6(kA).status, Status::kReservationConflict);
  EXPECT_EQ(release6(kA).status, Status::kReservationConflict);
  // ...except (CRH = 1) the persistent reservation holder, for whom they do
  // nothing.
  ASSERT_EQ(prout(kA, kReserve, kWE, kKeyA, 0).status, Status::kGood);
  EXPECT_EQ(reserve6(kA).status, Status::kGood);
  EXPECT_EQ(release6(kA).status, Status::kGood);
  EXPECT_EQ(reservation(), (Held{kKeyA, kWE}));
  EXPECT_EQ(write1(kB).status, Status::kReservationConflict) << "no SPC-2 reservation was made";
  EXPECT_EQ(read1(kB).status, Status::kGood);
  // A registrant of a Registrants Only reservation is exempt too.
  ASSERT_EQ(prout(kA, kRelease, kWE, kKeyA, 0).status, Status::kGood);
  ASSERT_EQ(register_key(kB, kKeyB).status, Status::kGood);
  ASSERT_EQ(prout(kA, kReserve, kWERO, kKeyA, 0).status, Status::kGood);
  EXPECT_EQ(reserve6(kB).status, Status::kGood);
  EXPECT_EQ(reserve6(kC).status, Status::kReservationConflict);
}

TEST_F(ReservationTest, TheSpc2HolderMayStillUsePersistentReservations) {
  ASSERT_EQ(reserve6(kA).status, Status::kGood);
  EXPECT_EQ(register_key(kA, kKeyA).status, Status::kGood);
  EXPECT_THAT(keys(kA), ElementsAre(kKeyA));
  EXPECT_EQ(prin(kB, kReadKeys).status, Status::kReservationConflict);
}

}  // namespace
}  // namespace memstore::scsi
