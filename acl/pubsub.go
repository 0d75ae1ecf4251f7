package acl

// ChannelsNarrowedFrom reports whether changing a user from old to u may revoke channels its
// subscribed clients hold (getUpcomingChannelList): false when some selector of u has &*, or
// when every channel pattern of old's selectors is also one of u's (and old had no &*). When
// true, the caller drops each of the user's clients with a subscription u.CheckChannel refuses
// (patterns with isPattern, channels and shard channels without), as
// ACLKillPubsubClientsIfNeeded.
func (u *User) ChannelsNarrowedFrom(old *User) bool {
	have := map[string]bool{}
	for _, s := range u.selectors {
		if s.allChannels {
			return false
		}
		for _, c := range s.channels {
			have[c] = true
		}
	}
	for _, s := range old.selectors {
		if s.allChannels {
			return true
		}
		for _, c := range s.channels {
			if !have[c] {
				return true
			}
		}
	}
	return false
}
