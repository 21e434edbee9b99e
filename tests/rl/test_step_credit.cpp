// gc.rl_credit step (controller/rl/step_credit.h): a decision is rewarded with the worst reward
// of the requests that arrived while its step ran, or the best value when none did; updated in
// decision order, each with its successor.
#include <gtest/gtest.h>

#include "controller/rl/step_credit.h"

using ssdtlm::rl::StepCredit;

TEST(RlStepCredit, WorstRequestBehindTheStepOrBestWhenNone) {
  StepCredit c(256);
  StepCredit::Update u;
  c.decided(1, 3, 0, true, true, 100);   // D0: a step runs on plane 0
  c.arrived(7, 110);                     // behind D0
  c.arrived(8, 120);                     // behind D0
  c.idle(0, 130);                        // D0's step ended
  c.arrived(9, 140);                     // after: behind nothing
  c.decided(2, 0, 0, false, true, 150);  // D1: no step -> closed at once
  EXPECT_FALSE(c.pop(u));                // D0 waits for its requests
  c.served(9, -128, true);               // not behind D0
  c.served(7, 128, true);
  EXPECT_FALSE(c.pop(u));
  c.served(8, 0, true);
  ASSERT_TRUE(c.pop(u));  // D0: the worst of 128 and 0, successor D1
  EXPECT_EQ(u.s, 1u);
  EXPECT_EQ(u.a, 3u);
  EXPECT_EQ(u.r, 0);
  EXPECT_TRUE(u.ready);
  EXPECT_EQ(u.s2, 2u);
  EXPECT_EQ(u.a2, 0u);
  EXPECT_FALSE(c.pop(u));  // D1 is complete (nothing behind it) but has no successor
  c.decided(4, 1, 1, true, true, 160);
  ASSERT_TRUE(c.pop(u));
  EXPECT_EQ(u.s, 2u);
  EXPECT_EQ(u.r, 256);  // nothing waited behind D1: the best value
  EXPECT_EQ(u.s2, 4u);
  EXPECT_EQ(c.waiting(), 1u);
}

TEST(RlStepCredit, PlanesCloseSeparatelyAndWarmupFlagsPropagate) {
  StepCredit c(256);
  StepCredit::Update u;
  c.decided(0, 1, 0, true, true, 10);  // plane 0
  c.decided(1, 2, 1, true, true, 20);  // plane 1
  c.idle(0, 30);
  c.arrived(5, 40);  // behind the decision of plane 1 only
  c.decided(2, 0, 0, false, true, 50);
  c.served(5, -256, false);  // classified in the warm-up
  c.idle(1, 60);
  ASSERT_TRUE(c.pop(u));
  EXPECT_EQ(u.r, 256);  // plane 0's decision: nothing behind it
  ASSERT_TRUE(c.pop(u));
  EXPECT_EQ(u.r, -256);
  EXPECT_FALSE(u.ready);
}

TEST(RlStepCredit, BoundedWaiting) {
  StepCredit c(256);
  for (uint32_t i = 0; i < StepCredit::kMaxWaiting + 5; ++i) c.decided(i % 68, 1, 0, true, true, i);
  EXPECT_EQ(c.waiting(), StepCredit::kMaxWaiting);
  EXPECT_EQ(c.dropped(), 5u);
  c.idle(0, 1000);
  StepCredit::Update u;
  ASSERT_TRUE(c.pop(u));
  EXPECT_EQ(u.s, 5u);  // the oldest kept
}
