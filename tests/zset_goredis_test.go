package tests

import (
	"context"
	"fmt"
	"math"
	"sort"
	"testing"

	"github.com/redis/go-redis/v9"
)

// TestZsetGoRedis: go-redis's typed sorted-set calls parse kvserver's replies in RESP2 and RESP3
// (doubles, [member, score] pairs, ZMPOP's [key, pairs], ZMSCORE's nils, ZSCAN's flat pairs) and
// get what Redis answers. ZRankWithScore (Redis 7.2's ZRANK … WITHSCORE) runs against kvserver
// only.
func TestZsetGoRedis(t *testing.T) {
	t.Parallel()
	s := zsetServer(t)
	for _, proto := range []int{2, 3} {
		t.Run(fmt.Sprintf("RESP%d", proto), func(t *testing.T) {
			ctx := context.Background()
			c := s.Client(t, withProtocol(proto))
			key := fmt.Sprintf("gz%d", proto)
			check := func(what string, got, want any) {
				t.Helper()
				if fmt.Sprint(got) != fmt.Sprint(want) {
					t.Fatalf("%s: got %v, want %v", what, got, want)
				}
			}
			n, err := c.ZAdd(ctx, key, redis.Z{Score: 1.5, Member: "a"}, redis.Z{Score: 2, Member: "b"},
				redis.Z{Score: math.Inf(1), Member: "c"}, redis.Z{Score: 0.1, Member: "d"}).Result()
			check("ZADD", fmt.Sprint(n, err), "4 <nil>")
			f, err := c.ZIncrBy(ctx, key, 0.2, "d").Result()
			check("ZINCRBY", fmt.Sprint(f, err), "0.30000000000000004 <nil>")
			f, err = c.ZAddArgsIncr(ctx, key, redis.ZAddArgs{XX: true, Members: []redis.Z{{Score: 1, Member: "a"}}}).Result()
			check("ZADD XX INCR", fmt.Sprint(f, err), "2.5 <nil>")
			_, err = c.ZAddArgsIncr(ctx, key, redis.ZAddArgs{NX: true, Members: []redis.Z{{Score: 1, Member: "a"}}}).Result()
			check("ZADD NX INCR of a present member", err, redis.Nil)
			zs, err := c.ZRangeWithScores(ctx, key, 0, -1).Result()
			check("ZRANGE WITHSCORES", fmt.Sprint(zs, err), fmt.Sprint([]redis.Z{{Score: 0.30000000000000004, Member: "d"},
				{Score: 2, Member: "b"}, {Score: 2.5, Member: "a"}, {Score: math.Inf(1), Member: "c"}}, nil))
			zs, err = c.ZRangeArgsWithScores(ctx, redis.ZRangeArgs{Key: key, Start: "(2", Stop: "+inf", ByScore: true, Rev: false, Count: 1, Offset: 0}).Result()
			check("ZRANGE BYSCORE LIMIT WITHSCORES", fmt.Sprint(zs, err), fmt.Sprint([]redis.Z{{Score: 2.5, Member: "a"}}, nil))
			fs, err := c.ZMScore(ctx, key, "a", "nosuch", "c").Result()
			check("ZMSCORE", fmt.Sprint(fs, err), fmt.Sprint([]float64{2.5, 0, math.Inf(1)}, nil))
			f, err = c.ZScore(ctx, key, "c").Result()
			check("ZSCORE", fmt.Sprint(f, err), fmt.Sprint(math.Inf(1), nil))
			_, err = c.ZScore(ctx, key, "nosuch").Result()
			check("ZSCORE of a missing member", err, redis.Nil)
			r, err := c.ZRank(ctx, key, "a").Result()
			check("ZRANK", fmt.Sprint(r, err), "2 <nil>")
			if !targetRedis {
				rs, err := c.ZRankWithScore(ctx, key, "b").Result()
				check("ZRANK WITHSCORE", fmt.Sprint(rs.Rank, rs.Score, err), "1 2 <nil>")
				rs, err = c.ZRevRankWithScore(ctx, key, "c").Result()
				check("ZREVRANK WITHSCORE", fmt.Sprint(rs.Rank, rs.Score, err), fmt.Sprint(0, math.Inf(1), nil))
			}
			zs, err = c.ZRandMemberWithScores(ctx, key, 10).Result()
			sort.Slice(zs, func(i, j int) bool { return zs[i].Score < zs[j].Score })
			check("ZRANDMEMBER 10 WITHSCORES", fmt.Sprint(len(zs), zs[len(zs)-1], err), fmt.Sprint(4, redis.Z{Score: math.Inf(1), Member: "c"}, nil))
			zs, err = c.ZUnionWithScores(ctx, redis.ZStore{Keys: []string{key, key}, Weights: []float64{1, 2}, Aggregate: "MAX"}).Result()
			check("ZUNION WEIGHTS AGGREGATE MAX WITHSCORES", fmt.Sprint(len(zs), zs[1], err), fmt.Sprint(4, redis.Z{Score: 4, Member: "b"}, nil))
			zs, err = c.ZInterWithScores(ctx, &redis.ZStore{Keys: []string{key}}).Result()
			check("ZINTER WITHSCORES", fmt.Sprint(len(zs), err), "4 <nil>")
			zs, err = c.ZDiffWithScores(ctx, key, "nosuch").Result()
			check("ZDIFF WITHSCORES", fmt.Sprint(len(zs), err), "4 <nil>")
			n, err = c.ZInterCard(ctx, 2, key, key).Result()
			check("ZINTERCARD LIMIT", fmt.Sprint(n, err), "2 <nil>")
			keys, cursor, err := c.ZScan(ctx, key, 0, "*", 10).Result()
			check("ZSCAN", fmt.Sprintf("%d %s %s %d %v", len(keys), keys[0], keys[1], cursor, err), "8 d 0.30000000000000004 0 <nil>")
			zs, err = c.ZPopMin(ctx, key).Result()
			check("ZPOPMIN", fmt.Sprint(zs, err), fmt.Sprint([]redis.Z{{Score: 0.30000000000000004, Member: "d"}}, nil))
			zs, err = c.ZPopMax(ctx, key, 2).Result()
			check("ZPOPMAX 2", fmt.Sprint(zs, err), fmt.Sprint([]redis.Z{{Score: math.Inf(1), Member: "c"}, {Score: 2.5, Member: "a"}}, nil))
			k, zs, err := c.ZMPop(ctx, "min", 5, "nosuch", key).Result()
			check("ZMPOP", fmt.Sprint(k, zs, err), fmt.Sprint(key, []redis.Z{{Score: 2, Member: "b"}}, nil))
			_, _, err = c.ZMPop(ctx, "min", 5, "nosuch", key).Result()
			check("ZMPOP of nothing", err, redis.Nil)
		})
	}
}
