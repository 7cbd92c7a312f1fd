// SPDX-License-Identifier: Apache-2.0
// Login/text negotiation (RFC 7143 §6, §13): one test per result function,
// defaults, each refusal and its Login status (§11.13.5), discovery sessions.
#include "target/iscsi/negotiation.h"

#include <gtest/gtest.h>

#include <numeric>

namespace memstore::iscsi {
namespace {

constexpr char kTarget[] = "iqn.2024-01.org.memstore:disk";
constexpr char kInitiator[] = "iqn.1994-05.com.example:host";

LoginConfig config() {
  LoginConfig c;
  c.limits.target_name = kTarget;
  c.limits.max_burst_length = 1048576;
  c.send_targets = {{kTarget, {"10.0.0.1:3260,1", "[fe80::1]:3260,1"}, {}, false},
                    {"iqn.2024-01.org.memstore:other", {"10.0.0.2:3260,2"}, {}, false}};
  return c;
}

KeyList first(KeyList more = {}) {
  KeyList k{{"InitiatorName", kInitiator}, {"SessionType", "Normal"}, {"TargetName", kTarget}};
  k.insert(k.end(), more.begin(), more.end());
  return k;
}

std::optional<std::string> get(const KeyList& keys, std::string_view name) {
  for (const auto& [k, v] : keys) {
    if (k == name) return v;
  }
  return std::nullopt;
}

// One operational-stage request after a clean first request.
Negotiation::Result op(Negotiation& n, KeyList keys) {
  return n.respond(first(std::move(keys)), Phase::kOperational);
}

TEST(NegotiationTest, BooleanAnd) {
  LoginConfig c = config();
  c.limits.allow_immediate_data = false;
  Negotiation n(c);
  EXPECT_EQ(get(op(n, {{"ImmediateData", "Yes"}}).keys, "ImmediateData"), "No");
  Negotiation yes(config());
  EXPECT_EQ(get(op(yes, {{"ImmediateData", "Yes"}}).keys, "ImmediateData"), "Yes");
  Negotiation no(config());
  EXPECT_EQ(get(op(no, {{"ImmediateData", "No"}}).keys, "ImmediateData"), "No");
  EXPECT_FALSE(no.params().immediate_data);
}

TEST(NegotiationTest, BooleanOr) {
  Negotiation n(config());
  EXPECT_EQ(get(op(n, {{"InitialR2T", "No"}}).keys, "InitialR2T"), "No");
  EXPECT_FALSE(n.params().initial_r2t);
  LoginConfig c = config();
  c.limits.require_initial_r2t = true;
  Negotiation r(c);
  EXPECT_EQ(get(op(r, {{"InitialR2T", "No"}}).keys, "InitialR2T"), "Yes");
  EXPECT_TRUE(r.params().initial_r2t);
}

TEST(NegotiationTest, NumericMinimumClamps) {
  Negotiation n(config());
  const auto r = op(n, {{"MaxBurstLength", "16777215"},
                        {"MaxConnections", "8"},
                        {"ErrorRecoveryLevel", "2"},
                        {"MaxOutstandingR2T", "0x10"},
                        {"DefaultTime2Retain", "0"}});
  ASSERT_TRUE(r.ok()) << r.reason;
  EXPECT_EQ(get(r.keys, "MaxBurstLength"), "1048576");
  EXPECT_EQ(get(r.keys, "MaxConnections"), "1");
  EXPECT_EQ(get(r.keys, "ErrorRecoveryLevel"), "0");
  EXPECT_EQ(get(r.keys, "MaxOutstandingR2T"), "1");
  EXPECT_EQ(get(r.keys, "DefaultTime2Retain"), "0");
  EXPECT_EQ(n.params().max_burst_length, 1048576U);
  EXPECT_EQ(n.params().default_time2retain, 0U);
}

TEST(NegotiationTest, NumericMinimumKeepsSmallerOffer) {
  Negotiation n(config());
  EXPECT_EQ(get(op(n, {{"MaxBurstLength", "4096"}}).keys, "MaxBurstLength"), "4096");
}

TEST(NegotiationTest, NumericMaximum) {
  Negotiation low(config());
  EXPECT_EQ(get(op(low, {{"DefaultTime2Wait", "0"}}).keys, "DefaultTime2Wait"), "2");
  Negotiation high(config());
  EXPECT_EQ(get(op(high, {{"DefaultTime2Wait", "10"}}).keys, "DefaultTime2Wait"), "10");
  EXPECT_EQ(high.params().default_time2wait, 10U);
}

TEST(NegotiationTest, ListTakesFirstAcceptableInInitiatorOrder) {
  Negotiation n(config());
  const auto r = op(n, {{"HeaderDigest", "CRC32C,None"}, {"DataDigest", "None,CRC32C"}});
  EXPECT_EQ(get(r.keys, "HeaderDigest"), "CRC32C");
  EXPECT_EQ(get(r.keys, "DataDigest"), "None");
  EXPECT_TRUE(n.params().header_digest);
  EXPECT_FALSE(n.params().data_digest);

  LoginConfig c = config();
  c.limits.header_digest_crc32c = false;
  Negotiation none(c);
  EXPECT_EQ(get(op(none, {{"HeaderDigest", "CRC32C,None"}}).keys, "HeaderDigest"), "None");
  Negotiation bad(c);
  EXPECT_EQ(get(op(bad, {{"HeaderDigest", "CRC32C"}}).keys, "HeaderDigest"), "Reject");
  Negotiation unknown(config());
  EXPECT_EQ(get(op(unknown, {{"HeaderDigest", "MD5"}}).keys, "HeaderDigest"), "Reject");
}

TEST(NegotiationTest, TaskReportingAndProtocolLevel) {
  Negotiation n(config());
  const auto r = op(n, {{"TaskReporting", "ResponseFence,RFC3720"}, {"iSCSIProtocolLevel", "2"}});
  EXPECT_EQ(get(r.keys, "TaskReporting"), "RFC3720");
  EXPECT_EQ(get(r.keys, "iSCSIProtocolLevel"), "1");
  Negotiation fast(config());
  EXPECT_EQ(get(op(fast, {{"TaskReporting", "FastAbort"}}).keys, "TaskReporting"), "Reject");
}

TEST(NegotiationTest, DeclarativeKeysAreNotAnswered) {
  Negotiation n(config());
  const auto r = op(n, {{"InitiatorAlias", "host"}, {"MaxRecvDataSegmentLength", "65536"}});
  ASSERT_TRUE(r.ok()) << r.reason;
  EXPECT_EQ(get(r.keys, "InitiatorName"), std::nullopt);
  EXPECT_EQ(get(r.keys, "InitiatorAlias"), std::nullopt);
  // The only MaxRecvDataSegmentLength is the target's own declaration.
  EXPECT_EQ(get(r.keys, "MaxRecvDataSegmentLength"), "262144");
  const SessionParams p = n.params();
  EXPECT_EQ(p.initiator_max_recv_data_segment_length, 65536U);
  EXPECT_EQ(p.target_max_recv_data_segment_length, 262144U);
  EXPECT_EQ(p.initiator_alias, "host");
  EXPECT_EQ(p.initiator_name, kInitiator);
  EXPECT_EQ(p.target_name, kTarget);
}

TEST(NegotiationTest, TargetDeclaresOnceInOrderAfterAnswers) {
  LoginConfig c = config();
  c.limits.target_alias = "memstore disk";
  c.limits.target_portal_group_tag = 7;
  Negotiation n(c);
  const auto sec = n.respond(first({{"AuthMethod", "None"}}), Phase::kSecurity);
  ASSERT_TRUE(sec.ok()) << sec.reason;
  EXPECT_EQ(sec.keys, (KeyList{{"AuthMethod", "None"},
                               {"TargetPortalGroupTag", "7"},
                               {"TargetAlias", "memstore disk"}}));
  const auto opr = n.respond({{"InitialR2T", "No"}}, Phase::kOperational);
  EXPECT_EQ(opr.keys, (KeyList{{"InitialR2T", "No"}, {"MaxRecvDataSegmentLength", "262144"}}));
  const auto again = n.respond({{"ImmediateData", "Yes"}}, Phase::kOperational);
  EXPECT_EQ(again.keys, (KeyList{{"ImmediateData", "Yes"}}));
  EXPECT_TRUE(n.ready_for_full_feature().ok());
}

TEST(NegotiationTest, DefaultsWhenNothingNegotiated) {
  Negotiation n(config());
  ASSERT_TRUE(op(n, {}).ok());
  const SessionParams p = n.params();
  EXPECT_EQ(p.session_type, SessionType::kNormal);
  EXPECT_FALSE(p.header_digest);
  EXPECT_FALSE(p.data_digest);
  EXPECT_EQ(p.initiator_max_recv_data_segment_length, 8192U);
  EXPECT_EQ(p.max_burst_length, 262144U);
  EXPECT_EQ(p.first_burst_length, 65536U);
  EXPECT_TRUE(p.initial_r2t);
  EXPECT_TRUE(p.immediate_data);
  EXPECT_EQ(p.max_outstanding_r2t, 1U);
  EXPECT_TRUE(p.data_pdu_in_order);
  EXPECT_TRUE(p.data_sequence_in_order);
  EXPECT_EQ(p.default_time2wait, 2U);
  EXPECT_EQ(p.default_time2retain, 20U);
  EXPECT_EQ(p.error_recovery_level, 0U);
  EXPECT_EQ(p.max_connections, 1U);
}

TEST(NegotiationTest, OutOfRangeAndMalformedValuesRejected) {
  Negotiation n(config());
  const auto r = op(n, {{"MaxBurstLength", "100"},
                        {"MaxConnections", "0"},
                        {"InitialR2T", "Maybe"},
                        {"ErrorRecoveryLevel", "3"},
                        {"DefaultTime2Wait", "-1"},
                        {"MaxRecvDataSegmentLength", "16777216"},
                        {"FirstBurstLength", "0x"}});
  ASSERT_TRUE(r.ok()) << r.reason;
  for (const char* k : {"MaxBurstLength", "MaxConnections", "InitialR2T", "ErrorRecoveryLevel",
                        "DefaultTime2Wait", "FirstBurstLength"}) {
    EXPECT_EQ(get(r.keys, k), "Reject") << k;
  }
  EXPECT_EQ(r.keys.at(5), (KeyValue{"MaxRecvDataSegmentLength", "Reject"}));
  EXPECT_EQ(n.params().max_burst_length, 262144U);  // the default stays
  EXPECT_EQ(n.params().initiator_max_recv_data_segment_length, 8192U);
}

TEST(NegotiationTest, UnknownKeysNotUnderstood) {
  Negotiation n(config());
  const auto r = op(n, {{"X-com.example.Foo", "1"}, {"X#Bar", "2"}, {"Fancy", "Yes"}});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(get(r.keys, "X-com.example.Foo"), "NotUnderstood");
  EXPECT_EQ(get(r.keys, "X#Bar"), "NotUnderstood");
  EXPECT_EQ(get(r.keys, "Fancy"), "NotUnderstood");
}

TEST(NegotiationTest, MalformedKeyNameIsInitiatorError) {
  Negotiation n(config());
  EXPECT_EQ(op(n, {{"Bad Key", "1"}}).status, kInitiatorError);
  Negotiation m(config());
  EXPECT_EQ(op(m, {{std::string(64, 'A'), "1"}}).status, kInitiatorError);
}

TEST(NegotiationTest, ObsoleteMarkersRejected) {
  Negotiation n(config());
  const auto r = op(
      n,
      {{"OFMarker", "No"}, {"IFMarker", "No"}, {"OFMarkInt", "2048~8192"}, {"IFMarkInt", "2048"}});
  ASSERT_TRUE(r.ok());
  for (const char* k : {"OFMarker", "IFMarker", "OFMarkInt", "IFMarkInt"}) {
    EXPECT_EQ(get(r.keys, k), "Reject") << k;
  }
}

TEST(NegotiationTest, KeyInWrongStage) {
  Negotiation digest(config());
  EXPECT_EQ(digest.respond(first({{"HeaderDigest", "None"}}), Phase::kSecurity).status,
            kInitiatorError);
  Negotiation auth(config());
  EXPECT_EQ(op(auth, {{"AuthMethod", "None"}}).status, kInitiatorError);
  Negotiation send(config());
  EXPECT_EQ(op(send, {{"SendTargets", "All"}}).status, kInitiatorError);
  Negotiation text(config());
  ASSERT_TRUE(op(text, {}).ok());
  EXPECT_EQ(text.respond({{"MaxBurstLength", "512"}}, Phase::kFullFeature).status, kInitiatorError);
}

TEST(NegotiationTest, DuplicateKeysAreInitiatorErrors) {
  Negotiation same(config());
  EXPECT_EQ(op(same, {{"MaxBurstLength", "512"}, {"MaxBurstLength", "1024"}}).status,
            kInitiatorError);
  Negotiation later(config());
  ASSERT_TRUE(op(later, {{"InitialR2T", "No"}}).ok());
  EXPECT_EQ(later.respond({{"InitialR2T", "Yes"}}, Phase::kOperational).status, kInitiatorError);
  Negotiation identity(config());
  ASSERT_TRUE(op(identity, {}).ok());
  EXPECT_EQ(identity.respond({{"SessionType", "Discovery"}}, Phase::kOperational).status,
            kInitiatorError);
}

TEST(NegotiationTest, TargetOnlyKeysFromInitiatorRefused) {
  Negotiation n(config());
  EXPECT_EQ(op(n, {{"TargetPortalGroupTag", "1"}}).status, kInitiatorError);
  Negotiation a(config());
  EXPECT_EQ(op(a, {{"TargetAlias", "x"}}).status, kInitiatorError);
}

TEST(NegotiationTest, LeadingOnlyKeysOnOtherConnectionsRefused) {
  Negotiation n(config(), /*leading=*/false);
  EXPECT_EQ(op(n, {{"MaxBurstLength", "512"}}).status, kInitiatorError);
  Negotiation ok(config(), /*leading=*/false);
  EXPECT_TRUE(op(ok, {{"HeaderDigest", "None"}}).ok());
}

TEST(NegotiationTest, FirstBurstClampedToMaxBurstInSameRequest) {
  Negotiation n(config());
  const auto r = op(n, {{"FirstBurstLength", "65536"}, {"MaxBurstLength", "16384"}});
  ASSERT_TRUE(r.ok()) << r.reason;
  EXPECT_EQ(get(r.keys, "MaxBurstLength"), "16384");
  EXPECT_EQ(get(r.keys, "FirstBurstLength"), "16384");
  EXPECT_EQ(n.params().first_burst_length, 16384U);
}

TEST(NegotiationTest, TargetOffersFirstBurstWhenDefaultExceedsMaxBurst) {
  Negotiation n(config());
  const auto r = op(n, {{"MaxBurstLength", "16384"}});
  ASSERT_TRUE(r.ok()) << r.reason;
  EXPECT_EQ(get(r.keys, "FirstBurstLength"), "16384");
  EXPECT_TRUE(n.awaiting_answers());
  EXPECT_FALSE(n.ready_for_full_feature().ok());
  const auto answer = n.respond({{"FirstBurstLength", "8192"}}, Phase::kOperational);
  ASSERT_TRUE(answer.ok()) << answer.reason;
  EXPECT_EQ(get(answer.keys, "FirstBurstLength"), std::nullopt);  // answers are not answered
  EXPECT_FALSE(n.awaiting_answers());
  EXPECT_EQ(n.params().first_burst_length, 8192U);
}

// Our side of FirstBurstLength is one full PDU (our MaxRecvDataSegmentLength,
// 256 KiB), so that the initiators' usual offer of 262144 stands and a write
// of that size needs no R2T; larger offers get that much.
TEST(NegotiationTest, FirstBurstIsOneFullPdu) {
  LoginConfig c = config();
  EXPECT_EQ(c.limits.first_burst_length, c.limits.max_recv_data_segment_length);
  for (const auto& [offer, answer] :
       {std::pair{"262144", "262144"}, {"16776192", "262144"}, {"65536", "65536"}}) {
    Negotiation n(c);
    const auto r = op(n, {{"FirstBurstLength", offer}});
    ASSERT_TRUE(r.ok()) << r.reason;
    EXPECT_EQ(get(r.keys, "FirstBurstLength"), answer) << offer;
  }
}

TEST(NegotiationTest, MaxBurstBelowAgreedFirstBurstFails) {
  Negotiation n(config());
  ASSERT_TRUE(op(n, {{"FirstBurstLength", "65536"}}).ok());
  EXPECT_EQ(n.respond({{"MaxBurstLength", "4096"}}, Phase::kOperational).status, kInitiatorError);
}

TEST(NegotiationTest, TargetOffersValuesTheDefaultViolates) {
  LoginConfig c = config();
  c.limits.allow_immediate_data = false;
  Negotiation n(c);
  const auto r = op(n, {});
  EXPECT_EQ(get(r.keys, "ImmediateData"), "No");
  EXPECT_TRUE(n.awaiting_answers());
  EXPECT_EQ(n.respond({{"ImmediateData", "Yes"}}, Phase::kOperational).status, kInitiatorError);
  Negotiation good(c);
  ASSERT_TRUE(op(good, {}).ok());
  ASSERT_TRUE(good.respond({{"ImmediateData", "No"}}, Phase::kOperational).ok());
  EXPECT_FALSE(good.params().immediate_data);
  EXPECT_TRUE(good.ready_for_full_feature().ok());
}

TEST(NegotiationTest, FirstRequestIdentityChecks) {
  Negotiation no_name(config());
  EXPECT_EQ(no_name.respond({{"TargetName", kTarget}}, Phase::kOperational).status,
            kMissingParameter);
  Negotiation no_target(config());
  EXPECT_EQ(no_target.respond({{"InitiatorName", kInitiator}}, Phase::kOperational).status,
            kMissingParameter);
  Negotiation wrong(config());
  EXPECT_EQ(wrong
                .respond({{"InitiatorName", kInitiator}, {"TargetName", "iqn.2024-01.org.x:y"}},
                         Phase::kOperational)
                .status,
            kTargetNotFound);
  Negotiation type(config());
  EXPECT_EQ(type.respond(first({{"SessionType", "Bogus"}}), Phase::kOperational).status,
            kInitiatorError);  // the pre-scan sees "Normal" first; the second is a duplicate
  Negotiation bogus(config());
  EXPECT_EQ(
      bogus.respond({{"InitiatorName", kInitiator}, {"SessionType", "Bogus"}}, Phase::kOperational)
          .status,
      kSessionTypeNotSupported);
}

TEST(NegotiationTest, AclByInitiatorName) {
  EXPECT_TRUE(initiator_allowed({}, kInitiator));
  EXPECT_TRUE(initiator_allowed({"iqn.x:a", kInitiator}, kInitiator));
  EXPECT_TRUE(initiator_allowed({"IQN.1994-05.COM.EXAMPLE:HOST"}, kInitiator));
  EXPECT_FALSE(initiator_allowed({"iqn.x:a"}, kInitiator));
  EXPECT_FALSE(initiator_allowed({"iqn.1994-05.com.example:hos"}, kInitiator));
  LoginConfig c = config();
  c.security.acl = {"iqn.x:a"};
  Negotiation n(c);
  EXPECT_EQ(op(n, {}).status, kAuthorizationFailure);
  EXPECT_EQ(kAuthorizationFailure.code(), 0x0202);
}

TEST(NegotiationTest, DiscoverySessionSubset) {
  Negotiation n(config());
  const auto r = n.respond({{"InitiatorName", kInitiator},
                            {"SessionType", "Discovery"},
                            {"HeaderDigest", "None"},
                            {"InitialR2T", "No"},
                            {"MaxBurstLength", "4096"},
                            {"MaxConnections", "1"},
                            {"DefaultTime2Wait", "0"}},
                           Phase::kOperational);
  ASSERT_TRUE(r.ok()) << r.reason;
  EXPECT_EQ(get(r.keys, "HeaderDigest"), "None");
  EXPECT_EQ(get(r.keys, "InitialR2T"), "Irrelevant");
  EXPECT_EQ(get(r.keys, "MaxBurstLength"), "Irrelevant");
  EXPECT_EQ(get(r.keys, "MaxConnections"), "Irrelevant");
  EXPECT_EQ(get(r.keys, "DefaultTime2Wait"), "2");
  EXPECT_EQ(get(r.keys, "TargetPortalGroupTag"), std::nullopt);
  EXPECT_EQ(get(r.keys, "FirstBurstLength"), std::nullopt);  // no burst fix-up in discovery
  EXPECT_EQ(n.params().session_type, SessionType::kDiscovery);
  EXPECT_TRUE(n.ready_for_full_feature().ok());

  const auto all = n.respond({{"SendTargets", "All"}}, Phase::kFullFeature);
  EXPECT_EQ(all.keys, (KeyList{{"TargetName", kTarget},
                               {"TargetAddress", "10.0.0.1:3260,1"},
                               {"TargetAddress", "[fe80::1]:3260,1"},
                               {"TargetName", "iqn.2024-01.org.memstore:other"},
                               {"TargetAddress", "10.0.0.2:3260,2"}}));
  const auto one =
      n.respond({{"SendTargets", "iqn.2024-01.org.memstore:other"}}, Phase::kFullFeature);
  EXPECT_EQ(one.keys, (KeyList{{"TargetName", "iqn.2024-01.org.memstore:other"},
                               {"TargetAddress", "10.0.0.2:3260,2"}}));
  EXPECT_EQ(n.respond({{"SendTargets", ""}}, Phase::kFullFeature).keys,
            (KeyList{{"SendTargets", "Reject"}}));
}

TEST(NegotiationTest, DiscoveryCanBeDisabled) {
  LoginConfig c = config();
  c.limits.allow_discovery = false;
  Negotiation n(c);
  EXPECT_EQ(
      n.respond({{"InitiatorName", kInitiator}, {"SessionType", "Discovery"}}, Phase::kSecurity)
          .status,
      kSessionTypeNotSupported);
}

// A portal on every address (0.0.0.0, ::) is no address an initiator can
// connect to: SendTargets names the one this connection came to instead.
TEST(NegotiationTest, SendTargetsNamesTheConnectionsAddressForAWildcardPortal) {
  for (const auto& [local, want] : {std::pair<std::string, std::string>{"192.0.2.7", "192.0.2.7"},
                                    {"2001:db8::7", "[2001:db8::7]"}}) {
    LoginConfig c;
    c.local_host = local;
    c.send_targets = {{kTarget, {"0.0.0.0:3260,1", "[::]:3261,1", "10.0.0.1:3262,1"}, {}, false}};
    Negotiation n(c);
    ASSERT_TRUE(n.respond({{"InitiatorName", kInitiator}, {"SessionType", "Discovery"}},
                          Phase::kOperational)
                    .ok());
    EXPECT_EQ(n.respond({{"SendTargets", "All"}}, Phase::kFullFeature).keys,
              (KeyList{{"TargetName", kTarget},
                       {"TargetAddress", want + ":3260,1"},
                       {"TargetAddress", want + ":3261,1"},
                       {"TargetAddress", "10.0.0.1:3262,1"}}));
  }
}

TEST(NegotiationTest, SendTargetsInNormalSession) {
  Negotiation n(config());
  ASSERT_TRUE(op(n, {}).ok());
  EXPECT_EQ(n.respond({{"SendTargets", "All"}}, Phase::kFullFeature).keys,
            (KeyList{{"SendTargets", "Reject"}}));
  const auto own = n.respond({{"SendTargets", ""}}, Phase::kFullFeature);
  EXPECT_EQ(get(own.keys, "TargetName"), kTarget);
  // Text exchanges stand alone: MaxRecvDataSegmentLength may be redeclared.
  ASSERT_TRUE(n.respond({{"MaxRecvDataSegmentLength", "4096"}}, Phase::kFullFeature).ok());
  ASSERT_TRUE(n.respond({{"MaxRecvDataSegmentLength", "8192"}}, Phase::kFullFeature).ok());
  EXPECT_EQ(n.params().initiator_max_recv_data_segment_length, 8192U);
}

// Identifier 42, then the challenge 00 01 .. 0f (see chap_test.cc).
void fixed_random(std::span<std::uint8_t> out) {
  if (out.size() == 1) {
    out[0] = 42;
  } else {
    std::iota(out.begin(), out.end(), std::uint8_t{0});
  }
}

// Discovery as seen by kInitiator: an open target, one whose ACL names it,
// one whose ACL does not, and one that requires CHAP.
LoginConfig filtered_discovery() {
  LoginConfig c;
  c.send_targets = {
      {"iqn.2024-01.org.memstore:open", {"10.0.0.1:3260,1"}, {}, false},
      {"iqn.2024-01.org.memstore:mine",
       {"10.0.0.1:3261,2"},
       {"IQN.1994-05.com.example:HOST"},
       false},
      {"iqn.2024-01.org.memstore:theirs",
       {"10.0.0.1:3262,3"},
       {"iqn.1994-05.com.example:x"},
       false},
      {"iqn.2024-01.org.memstore:chap", {"10.0.0.1:3263,4"}, {}, true},
  };
  return c;
}

std::vector<std::string> listed(const KeyList& keys) {
  std::vector<std::string> names;
  for (const auto& [k, v] : keys) {
    if (k == "TargetName") names.push_back(v);
  }
  return names;
}

TEST(NegotiationTest, DiscoveryListsOnlyTargetsTheAclLetsIn) {
  Negotiation n(filtered_discovery());
  ASSERT_TRUE(
      n.respond({{"InitiatorName", kInitiator}, {"SessionType", "Discovery"}}, Phase::kOperational)
          .ok());
  const auto all = n.respond({{"SendTargets", "All"}}, Phase::kFullFeature);
  // ACL names compare without case; a target requiring CHAP is listed when
  // discovery needs no authentication (its own login still demands CHAP).
  EXPECT_EQ(listed(all.keys), (std::vector<std::string>{"iqn.2024-01.org.memstore:open",
                                                        "iqn.2024-01.org.memstore:mine",
                                                        "iqn.2024-01.org.memstore:chap"}));
  // Asking for a hidden target by name finds nothing either.
  EXPECT_TRUE(n.respond({{"SendTargets", "iqn.2024-01.org.memstore:theirs"}}, Phase::kFullFeature)
                  .keys.empty());

  Negotiation other(filtered_discovery());
  ASSERT_TRUE(
      other
          .respond({{"InitiatorName", "iqn.1994-05.com.example:x"}, {"SessionType", "Discovery"}},
                   Phase::kOperational)
          .ok());
  EXPECT_EQ(
      listed(other.respond({{"SendTargets", "All"}}, Phase::kFullFeature).keys),
      (std::vector<std::string>{"iqn.2024-01.org.memstore:open", "iqn.2024-01.org.memstore:theirs",
                                "iqn.2024-01.org.memstore:chap"}));
}

TEST(NegotiationTest, DiscoveryWithChapListsChapTargetsOnceAuthenticated) {
  LoginConfig c = filtered_discovery();
  c.security.discovery_chap = ChapConfig{kInitiator, "initiatorsecret1", {}, {}};
  Negotiation skipped(c, true, fixed_random);
  ASSERT_TRUE(
      skipped
          .respond(
              {{"InitiatorName", kInitiator}, {"SessionType", "Discovery"}, {"AuthMethod", "CHAP"}},
              Phase::kSecurity)
          .ok());
  // No SendTargets answer before authentication.
  EXPECT_EQ(skipped.respond({{"SendTargets", "All"}}, Phase::kFullFeature).status,
            kAuthenticationFailure);

  Negotiation n(c, true, fixed_random);
  ASSERT_TRUE(
      n.respond(
           {{"InitiatorName", kInitiator}, {"SessionType", "Discovery"}, {"AuthMethod", "CHAP"}},
           Phase::kSecurity)
          .ok());
  ASSERT_TRUE(n.respond({{"CHAP_A", "5"}}, Phase::kSecurity).ok());
  ASSERT_TRUE(n.respond({{"CHAP_N", kInitiator}, {"CHAP_R", "0xa5cd4c4cc5e63021e6da5072644eb7bf"}},
                        Phase::kSecurity)
                  .ok());
  EXPECT_EQ(
      listed(n.respond({{"SendTargets", "All"}}, Phase::kFullFeature).keys),
      (std::vector<std::string>{"iqn.2024-01.org.memstore:open", "iqn.2024-01.org.memstore:mine",
                                "iqn.2024-01.org.memstore:chap"}));
}

LoginConfig chap_config() {
  LoginConfig c = config();
  c.security.chap = ChapConfig{kInitiator, "initiatorsecret1", {}, {}};
  return c;
}

TEST(NegotiationTest, ChapLogin) {
  Negotiation n(chap_config(), true, fixed_random);
  const auto a = n.respond(first({{"AuthMethod", "None,CHAP"}}), Phase::kSecurity);
  ASSERT_TRUE(a.ok()) << a.reason;
  EXPECT_EQ(get(a.keys, "AuthMethod"), "CHAP");
  const auto b = n.respond({{"CHAP_A", "5"}}, Phase::kSecurity);
  EXPECT_EQ(b.keys, (KeyList{{"CHAP_A", "5"},
                             {"CHAP_I", "42"},
                             {"CHAP_C", "0x000102030405060708090a0b0c0d0e0f"}}));
  EXPECT_FALSE(n.authenticated());
  const auto c = n.respond(
      {{"CHAP_N", kInitiator}, {"CHAP_R", "0xa5cd4c4cc5e63021e6da5072644eb7bf"}}, Phase::kSecurity);
  ASSERT_TRUE(c.ok()) << c.reason;
  EXPECT_TRUE(n.authenticated());
  EXPECT_TRUE(n.respond({{"InitialR2T", "No"}}, Phase::kOperational).ok());
  EXPECT_TRUE(n.ready_for_full_feature().ok());
}

TEST(NegotiationTest, ChapWrongResponseIsAuthenticationFailure) {
  Negotiation n(chap_config(), true, fixed_random);
  ASSERT_TRUE(n.respond(first({{"AuthMethod", "CHAP"}}), Phase::kSecurity).ok());
  ASSERT_TRUE(n.respond({{"CHAP_A", "5"}}, Phase::kSecurity).ok());
  const auto r = n.respond({{"CHAP_N", kInitiator}, {"CHAP_R", "0x00"}}, Phase::kSecurity);
  EXPECT_EQ(r.status, kAuthenticationFailure);
  EXPECT_EQ(r.status.code(), 0x0201);
}

TEST(NegotiationTest, ChapRequiredButSkipped) {
  Negotiation skip(chap_config());
  EXPECT_EQ(op(skip, {}).status, kAuthenticationFailure);
  Negotiation none(chap_config());
  const auto r = none.respond(first({{"AuthMethod", "None"}}), Phase::kSecurity);
  EXPECT_EQ(r.status, kAuthenticationFailure);
  EXPECT_EQ(get(r.keys, "AuthMethod"), "Reject");
  Negotiation early(chap_config());
  ASSERT_TRUE(early.respond(first({{"AuthMethod", "CHAP"}}), Phase::kSecurity).ok());
  EXPECT_EQ(early.ready_for_full_feature().status, kAuthenticationFailure);
}

TEST(NegotiationTest, ChapKeysWithoutChapMethod) {
  Negotiation n(config());
  EXPECT_EQ(n.respond(first({{"CHAP_A", "5"}}), Phase::kSecurity).status, kInitiatorError);
}

TEST(NegotiationTest, NoAuthConfiguredChoosesNone) {
  Negotiation n(config());
  const auto r = n.respond(first({{"AuthMethod", "CHAP,None"}}), Phase::kSecurity);
  EXPECT_EQ(get(r.keys, "AuthMethod"), "None");
  EXPECT_TRUE(n.authenticated());
}

TEST(NegotiationTest, LoginStatusCodes) {
  EXPECT_EQ(kInitiatorError.code(), 0x0200);
  EXPECT_EQ(kTargetNotFound.code(), 0x0203);
  EXPECT_EQ(kMissingParameter.code(), 0x0207);
  EXPECT_EQ(kSessionTypeNotSupported.code(), 0x0209);
  EXPECT_TRUE(kLoginSuccess.ok());
}

}  // namespace
}  // namespace memstore::iscsi
