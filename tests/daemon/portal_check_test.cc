// SPDX-License-Identifier: Apache-2.0
// The portal check memstored makes before it opens any LUN's image.
#include "target/daemon/portal_check.h"

#include <gmock/gmock.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include "tests/error_text.h"

namespace memstore::daemon {
namespace {

using ::testing::HasSubstr;

TEST(PortalCheck, APortInUseIsNamedWithTheReason) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  ASSERT_GE(fd, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
  ASSERT_EQ(::listen(fd, 1), 0);
  socklen_t len = sizeof a;
  ASSERT_EQ(::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len), 0);
  const auto port = ntohs(a.sin_port);
  EXPECT_EQ(testing::error_text(check_portal({"127.0.0.1", port})),
            "127.0.0.1:" + std::to_string(port) + ": Address already in use");
  ::close(fd);
  EXPECT_EQ(testing::error_text(check_portal({"127.0.0.1", port})), "");  // free again
}

TEST(PortalCheck, AnAddressThatIsNotOnThisHostOrNotAnAddressIsRefused) {
  EXPECT_EQ(testing::error_text(check_portal({"127.0.0.1", 0})), "");
  EXPECT_THAT(testing::error_text(check_portal({"192.0.2.1", 3260})),
              HasSubstr("192.0.2.1:3260: Cannot assign requested address"));
  EXPECT_THAT(testing::error_text(check_portal({"example.org", 3260})),
              HasSubstr("example.org:3260: not a numeric IP address"));
  EXPECT_THAT(testing::error_text(check_portal({"::1", 0})),
              ::testing::AnyOf("", HasSubstr("[::1]:0")));
}

}  // namespace
}  // namespace memstore::daemon
