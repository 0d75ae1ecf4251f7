package geofamily

import "github.com/kvserver/kvserver/command"

// Commands returns the @geo family's rows: a name and a handler each. Arity, flags, key specs
// and ACL categories come from Redis 7.2's metadata (command.New); GEORADIUS's and
// GEORADIUSBYMEMBER's STORE keys are found by their key function.
func Commands() []*command.Command {
	return []*command.Command{
		{Name: "geoadd", Handler: geoaddCommand},
		{Name: "geopos", Handler: geoposCommand, InlineIf: command.FewMembers(2)},
		{Name: "geodist", Handler: geodistCommand, InlineIf: command.FewMembers(2)},
		{Name: "geohash", Handler: geohashCommand, InlineIf: command.FewMembers(2)},
		{Name: "geosearch", Handler: geosearchCommand},
		{Name: "geosearchstore", Handler: geosearchstoreCommand},
		{Name: "georadius", Handler: georadiusCommand},
		{Name: "georadius_ro", Handler: georadiusroCommand},
		{Name: "georadiusbymember", Handler: georadiusbymemberCommand},
		{Name: "georadiusbymember_ro", Handler: georadiusbymemberroCommand},
	}
}
