-- Undo data as a patch: an undoable action stores only what it changed (engine/service.py,
-- undo_patch), and only the newest entry of a campaign keeps it (an undo takes back the last
-- action only).  Whole-state copies of entries an undo can no longer reach are dropped.
ALTER TABLE action_log ADD COLUMN undo_patch TEXT;
UPDATE action_log SET state_before = NULL
 WHERE state_before IS NOT NULL
   AND seq < (SELECT MAX(l.seq) FROM action_log l WHERE l.campaign_id = action_log.campaign_id);
