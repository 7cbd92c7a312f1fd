// SPDX-License-Identifier: Apache-2.0
// Unit attentions of initiator ports that leave (SAM-5 "Unit attention
// conditions"): kept for a port's return, but bounded, so that an initiator
// that logs in with a new ISID each time cannot grow them without end.
#include <gmock/gmock.h>

#include <string>

#include "tests/scsi/lun_fixture.h"

namespace memstore::scsi {
namespace {

using ::testing::ElementsAre;
using testing::LunTest;

std::string port_name(int i) {
  return "iqn.2026-01.org.example:c,i,0x4000000" + std::to_string(10000 + i);
}

class UnitAttentionBound : public LunTest {
 protected:
  // Port i comes back on a new nexus and sends TEST UNIT READY.
  std::vector<int> returns(int i, std::uint64_t nexus) {
    lun->describe_nexus(nexus, port_name(i));
    return kcq(run({0x00, 0, 0, 0, 0, 0}, {}, nexus));
  }
};

TEST_F(UnitAttentionBound, PortsThatNeverReturnLoseTheirConditionsOldestFirst) {
  constexpr int kPorts = static_cast<int>(UnitAttentions::kMaxPorts) + 76;
  // Each port connects, is there for a logical unit reset, and leaves.
  for (int i = 0; i < kPorts; ++i) {
    const auto nexus = static_cast<std::uint64_t>(100 + i);
    lun->describe_nexus(nexus, port_name(i));
    lun->lun_reset();
    lun->nexus_lost(nexus);
  }
  // The first 76 to leave lost theirs; the later ones find theirs.
  EXPECT_THAT(returns(0, 5000), ElementsAre());
  EXPECT_THAT(returns(75, 5001), ElementsAre());
  EXPECT_THAT(returns(76, 5002), ElementsAre(6, 0x29, 0x03));
  EXPECT_THAT(returns(kPorts - 1, 5003), ElementsAre(6, 0x29, 0x03));
}

TEST_F(UnitAttentionBound, AConnectedPortKeepsItsConditionsWhateverLeaves) {
  lun->describe_nexus(1, port_name(-1));
  lun->lun_reset();  // for the connected port
  for (int i = 0; i < static_cast<int>(UnitAttentions::kMaxPorts) + 10; ++i) {
    const auto nexus = static_cast<std::uint64_t>(100 + i);
    lun->describe_nexus(nexus, port_name(i));
    lun->lun_reset();
    lun->nexus_lost(nexus);
  }
  EXPECT_THAT(kcq(run({0x00, 0, 0, 0, 0, 0}, {}, 1)), ElementsAre(6, 0x29, 0x03));
}

}  // namespace
}  // namespace memstore::scsi
