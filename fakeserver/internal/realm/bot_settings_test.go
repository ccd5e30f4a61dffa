package realm

import (
	"strings"
	"testing"
)

// A bot's configuration is bounded as the real server's BOT_CONFIG_SIZE_LIMIT bounds it, keys
// and values together, counting a replaced key once: an update that would go past the bound is
// refused whole, and the configuration stays as it was.
func TestBotConfigSizeBounded(t *testing.T) {
	s := newIndexedRealm(t)
	bot, err := s.CreateBot(1, NewBot{FullName: "Config Bot", ShortName: "config", BotType: 1, Interface: 1}, 10)
	if err != nil {
		t.Fatalf("creating the bot: %v", err)
	}
	update := func(config map[string]string) error {
		_, err := s.UpdateBot(1, bot.ID, BotUpdate{BotSettingsUpdate: BotSettingsUpdate{ServiceInterface: 1, ConfigData: config}}, HolderBounds{})
		return err
	}
	half := strings.Repeat("v", maxBotConfigSize/2-1) // with a one-character key: half the bound
	if err := update(map[string]string{"a": half}); err != nil {
		t.Fatalf("half the bound: %v", err)
	}
	if err := update(map[string]string{"a": half, "b": half}); err != nil {
		t.Fatalf("the bound exactly, key a replaced: %v", err)
	}
	if err := update(map[string]string{"c": "x"}); err == nil {
		t.Fatal("one more key past the bound was kept")
	}
	if got := s.settingsOf(s.users[bot.ID]).config; len(got) != 2 || got["c"] != "" {
		t.Errorf("the refused update changed the configuration: %d keys", len(got))
	}
	if err := update(map[string]string{"b": "short"}); err != nil {
		t.Errorf("shrinking a value under the bound: %v", err)
	}
	// A new bot's configuration has the same bound, and a refused one creates no bot.
	big := NewBot{FullName: "Big Bot", ShortName: "big", BotType: incomingWebhookBot, Interface: 1,
		ConfigData: map[string]string{"a": half, "b": half, "c": "x"}}
	if _, err := s.CreateBot(1, big, 10); err == nil {
		t.Error("a bot whose configuration is past the bound was created")
	}
	if _, taken := s.usersByEmail["big-bot@"+s.settings.Host]; taken {
		t.Error("the refused bot exists")
	}
}
